// The onnxruntime side of bench_vs_onnxruntime: times one model on the CPU
// execution provider with one intra-op thread.
//   node ort_bench.js MODEL.onnx INPUT_NAME D0,D1,... REPEAT
// prints one line: `median_ms MIN_ms` over REPEAT runs after 3 warm-up runs.
//   node ort_bench.js MODEL.onnx INPUT_NAME D0,D1,... serve
// prints `ready` after the warm-up, then for every line N read from stdin
// runs N times and prints one line of the N latencies in ms: the benchmark
// alternates rounds of passlab and onnxruntime this way, so a change in the
// machine's load between the two measurements does not become their ratio.
'use strict';
const ort = require('onnxruntime-node');

async function main() {
  const [model, inputName, dims, repeatText] = process.argv.slice(2);
  const shape = dims.split(',').map(Number);
  const repeat = Number(repeatText || 20);
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
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
  if (repeatText === 'serve') {
    console.log('ready');
    const lines = require('readline').createInterface({ input: process.stdin });
    for await (const line of lines) {
      const n = Number(line);
      if (!(n > 0)) break;
      const round = [];
      for (let i = 0; i < n; ++i) {
        const t0 = process.hrtime.bigint();
        await session.run(feeds);
        round.push((Number(process.hrtime.bigint() - t0) / 1e6).toFixed(4));
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
