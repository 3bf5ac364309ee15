// The onnxruntime side of bench_vs_onnxruntime: times one model on the CPU
// execution provider with one intra-op thread (ORT_THREADS=N in the
// environment: N intra-op threads).
//   node ort_bench.js MODEL.onnx INPUT_NAME D0,D1,... REPEAT
// prints one line: `median_ms MIN_ms` over REPEAT runs after 3 warm-up runs.
//   node ort_bench.js MODEL.onnx INPUT_NAME D0,D1,... profile [RUNS]
// prints onnxruntime's own per-node profile: median us per node over RUNS
// runs (default 200; the first 20 skipped), op type and output shape, so each
// line can be set against passlab's `--profile` table by output shape.
//   node ort_bench.js MODEL.onnx INPUT_NAME D0,D1,... serve
// prints `ready` after the warm-up, then for every line N read from stdin
// runs N times and prints one line of the N runs as WALL:CPU in ms (CPU: the
// whole process's user + system time during the run, every onnxruntime
// thread included, from process.cpuUsage): the benchmark
// alternates rounds of passlab and onnxruntime this way, so a change in the
// machine's load between the two measurements does not become their ratio.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const ort = require('onnxruntime-node');

/// One line per node, slowest first: median kernel time in us (the first 20
/// runs skipped as warm-up), op type, name and output shape.
function printNodeProfile(events) {
  const byNode = new Map();
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time')) continue;
    const name = e.name.slice(0, -'_kernel_time'.length);
    if (!byNode.has(name)) byNode.set(name, { op: e.args.op_name, output: e.args.output_type_shape, times: [] });
    byNode.get(name).times.push(e.dur);
  }
  const rows = [];
  for (const [name, n] of byNode) {
    const times = n.times.slice(Math.min(20, n.times.length - 1)).sort((a, b) => a - b);
    const shape = (n.output || []).map((o) => Object.values(o)[0].join('x')).join(',');
    rows.push({ name, op: n.op, shape, us: times[Math.floor(times.length / 2)] });
  }
  rows.sort((a, b) => b.us - a.us);
  const total = rows.reduce((sum, r) => sum + r.us, 0);
  console.log(`${'us'.padStart(8)}  ${'op'.padEnd(16)} ${'node'.padEnd(28)} output`);
  for (const r of rows) console.log(`${r.us.toFixed(0).padStart(8)}  ${String(r.op).padEnd(16)} ${r.name.padEnd(28)} ${r.shape}`);
  console.log(`${total.toFixed(0).padStart(8)}  total over ${rows.length} nodes (profiling adds a few us per node)`);
}

async function main() {
  const [model, inputName, dims, repeatText, profileRunsText] = process.argv.slice(2);
  const shape = dims.split(',').map(Number);
  const repeat = Number(repeatText || 20);
  const profiling = repeatText === 'profile';
  const profileDir = profiling ? fs.mkdtempSync(path.join(os.tmpdir(), 'ort_profile_')) : '';
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: Math.max(1, Number(process.env.ORT_THREADS || 1)),
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    ...(profiling ? { enableProfiling: true, profileFilePrefix: path.join(profileDir, 'ort') } : {}),
  });
  const n = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(n);
  let seed = 12345;
  for (let i = 0; i < n; ++i) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = (seed / 4294967296) * 2 - 1;
  }
  const feeds = { [inputName]: new ort.Tensor('float32', data, shape) };
  for (let i = 0; i < 3; ++i) await session.run(feeds);
  if (profiling) {
    const runs = Number(profileRunsText || 200);
    for (let i = 0; i < runs; ++i) await session.run(feeds);
    session.endProfiling();
    const file = fs.readdirSync(profileDir).find((f) => f.endsWith('.json'));
    printNodeProfile(JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')));
    fs.rmSync(profileDir, { recursive: true, force: true });
    return;
  }
  if (repeatText === 'serve') {
    console.log('ready');
    const lines = require('readline').createInterface({ input: process.stdin });
    for await (const line of lines) {
      const n = Number(line);
      if (!(n > 0)) break;
      const round = [];
      for (let i = 0; i < n; ++i) {
        const c0 = process.cpuUsage();
        const t0 = process.hrtime.bigint();
        await session.run(feeds);
        const wall = Number(process.hrtime.bigint() - t0) / 1e6;
        const c = process.cpuUsage(c0);
        round.push(`${wall.toFixed(4)}:${((c.user + c.system) / 1e3).toFixed(4)}`);
      }
      console.log(round.join(' '));
    }
    return;
  }
  const times = [];
  for (let i = 0; i < repeat; ++i) {
    const t0 = process.hrtime.bigint();
    await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  const median = times.length % 2 ? times[(times.length - 1) / 2] : (times[times.length / 2 - 1] + times[times.length / 2]) / 2;
  console.log(`${median.toFixed(4)} ${times[0].toFixed(4)}`);
}

main().catch((e) => {
  console.error(`ort_bench: ${e.message || e}`);
  process.exit(1);
});
