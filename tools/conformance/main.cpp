// passlab-conformance: runs ONNX's backend tests through the importer and the
// execution paths, prints one line per test and path and a summary per path,
// and optionally writes the Markdown report.
//
//   passlab-conformance [--path NAME]... [--filter TEXT] [--every N] [--report FILE] [--check-text] [--quiet] [DATA_DIR...]
//
// DATA_DIR defaults to the node, pytorch-converted, pytorch-operator and simple
// suites of /usr/share/libonnx-testdata/data. The exit status is 1 when any
// test failed on a path that ran, so ctest reports the suite as failed.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>

#include "tools/conformance/paths.h"
#include "tools/conformance/report.h"
#include "tools/conformance/runner.h"

namespace {

using namespace passlab::conformance;

constexpr const char* kDefaultRoot = "/usr/share/libonnx-testdata/data";
constexpr const char* kDefaultSuites[] = {"node", "pytorch-converted", "pytorch-operator", "simple"};

void usage() {
  std::cerr << "usage: passlab-conformance [--path interpreter|host|host-avx2|hexagon]... [--filter TEXT] [--every N] [--report FILE] [--check-text]"
               " [--quiet]"
               " [DATA_DIR...]\n"
               "  --path    execution path to run (repeatable; default: interpreter, host, hexagon;\n"
               "            host-avx2 is the host with -mattr=-avx512f)\n"
               "  --filter  only tests whose id contains TEXT\n"
               "  --every   only every N-th test (after --filter, in id order): a fixed, spread-out sample\n"
               "  --report  write the Markdown report (per-op table) to FILE\n"
               "  --check-text  also require print/parse/print of each imported module to be the identity,\n"
               "                and run the re-parsed module\n"
               "  --quiet   print only failures and the summary\n";
}

const char* outcomeText(Outcome o) {
  switch (o) {
    case Outcome::Pass: return "pass";
    case Outcome::Fail: return "FAIL";
    case Outcome::Skip: return "unsupported";
  }
  return "?";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> pathNames, roots;
  std::string filter, reportPath;
  bool quiet = false;
  long every = 1;
  RunOptions runOptions;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        usage();
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--path") pathNames.push_back(value());
    else if (arg == "--filter") filter = value();
    else if (arg == "--every") {
      std::string text = value();
      char* end = nullptr;
      every = std::strtol(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || every < 1) {
        std::cerr << "passlab-conformance: --every expects a positive integer, got '" << text << "'\n";
        return 2;
      }
    }
    else if (arg == "--report") reportPath = value();
    else if (arg == "--quiet") quiet = true;
    else if (arg == "--check-text") runOptions.checkText = true;
    else if (arg == "--help" || arg == "-h") {
      usage();
      return 0;
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "passlab-conformance: unknown option " << arg << "\n";
      usage();
      return 2;
    } else {
      roots.push_back(arg);
    }
  }
  if (pathNames.empty()) pathNames = allPathNames();
  std::vector<std::unique_ptr<ExecutionPath>> owned;
  RunSummary run;
  for (const std::string& name : pathNames) {
    std::unique_ptr<ExecutionPath> p = makePath(name);
    if (!p) {
      std::cerr << "passlab-conformance: unknown path '" << name << "'\n";
      return 2;
    }
    run.paths.push_back(p.get());
    owned.push_back(std::move(p));
  }
  if (roots.empty())
    for (const char* suite : kDefaultSuites) roots.push_back(std::string(kDefaultRoot) + "/" + suite);
  run.roots = roots;

  std::vector<TestCase> tests;
  for (const std::string& root : roots) {
    std::vector<TestCase> found = discoverTests(root);
    if (found.empty()) std::cerr << "passlab-conformance: no tests under " << root << "\n";
    tests.insert(tests.end(), found.begin(), found.end());
  }
  for (ExecutionPath* p : run.paths)
    if (!p->unavailableReason().empty()) std::cout << p->name() << ": " << p->unavailableReason() << "\n";

  auto start = std::chrono::steady_clock::now();
  size_t ran = 0, matched = 0;
  for (const TestCase& test : tests) {
    if (!filter.empty() && test.id.find(filter) == std::string::npos) continue;
    if (matched++ % static_cast<size_t>(every) != 0) continue;
    ++ran;
    for (TestResult& r : runTest(test, run.paths, runOptions)) {
      bool unavailable = false;
      for (ExecutionPath* p : run.paths)
        unavailable = unavailable || (p->name() == r.path && !p->unavailableReason().empty());
      // A path that cannot run is reported once above, not once per test.
      if (!unavailable && (!quiet || r.outcome == Outcome::Fail)) {
        std::cout << r.path << "  " << outcomeText(r.outcome) << "  " << r.testId;
        if (!r.detail.empty()) std::cout << "  " << r.detail;
        std::cout << "\n";
      }
      run.results.push_back(std::move(r));
    }
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  bool anyFailed = false;
  for (ExecutionPath* p : run.paths) {
    Counts c = countFor(run.results, p->name());
    anyFailed = anyFailed || c.failed > 0;
    std::cout << p->name() << ": " << countsText(c);
    if (!p->unavailableReason().empty()) std::cout << " (path not available)";
    std::cout << "\n";
  }
  std::printf("%zu tests in %.1f s\n", ran, run.seconds);
  if (!reportPath.empty()) {
    std::ofstream out(reportPath);
    if (!out) {
      std::cerr << "passlab-conformance: cannot write " << reportPath << "\n";
      return 2;
    }
    out << renderReport(run);
  }
  return anyFailed ? 1 : 0;
}
