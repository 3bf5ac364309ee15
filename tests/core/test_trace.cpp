// The trace: event tree from nesting, shared snapshots, provenance, diffs, JSON.
#include <catch2/catch.hpp>

#include <cctype>
#include <cstring>
#include <random>

#include "core/trace/trace.h"
#include "core/trace/trace_json.h"
#include "tests/pass_fixtures.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

/// A pass that reads a config key, then runs a nested pipeline in a child
/// context (as FoldConstant does), and returns the nested result.
class NestingPass final : public Pass {
 public:
  NestingPass() { info_.name = "Outer"; }
  const PassInfo& info() const override { return info_; }
  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    ctx.config("test.trace.key", info_.name);
    auto child = ctx.makeChild("Outer.eval");
    Sequential nested("nested", {std::make_shared<NegateBodies>(), readerPass()});
    return runPass(nested, mod, *child);
  }

 private:
  static PassPtr readerPass() {
    return lambdaPass("Reader", [](const IRModule& m, PassContext& ctx) {
      ctx.config("test.trace.key", "Reader");
      Diagnostic d;
      d.severity = Severity::Note;
      d.message = "looked";
      ctx.notifyDiagnostic(d);
      return m;
    });
  }
  PassInfo info_;
};

struct Traced {
  std::shared_ptr<Trace> trace;
  PassContextPtr ctx;
};

Traced tracedContext(const IRModule& mod) {
  Traced t{std::make_shared<Trace>(mod), PassContext::create("root")};
  t.ctx->instruments().push_back(std::make_shared<TraceInstrument>(t.trace));
  return t;
}

/// A small JSON validator: true when `text` is exactly one JSON value.
class JsonChecker {
 public:
  explicit JsonChecker(const std::string& text) : s_(text) {}
  bool valid() {
    ws();
    if (!value()) return false;
    ws();
    return i_ == s_.size();
  }

 private:
  void ws() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool lit(const char* w) {
    size_t n = std::strlen(w);
    if (s_.compare(i_, n, w) != 0) return false;
    i_ += n;
    return true;
  }
  bool string() {
    if (s_[i_] != '"') return false;
    for (++i_; i_ < s_.size(); ++i_) {
      unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c < 0x20) return false;
      if (c == '\\') {
        ++i_;
        if (i_ >= s_.size() || !std::strchr("\"\\/bfnrtu", s_[i_])) return false;
      } else if (c == '"') {
        ++i_;
        return true;
      }
    }
    return false;
  }
  bool number() {
    size_t start = i_;
    if (s_[i_] == '-') ++i_;
    while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || std::strchr(".eE+-", s_[i_]))) ++i_;
    return i_ > start;
  }
  bool value() {
    if (i_ >= s_.size()) return false;
    char c = s_[i_];
    if (c == '{') return container('}', true);
    if (c == '[') return container(']', false);
    if (c == '"') return string();
    if (lit("true") || lit("false") || lit("null")) return true;
    return number();
  }
  bool container(char close, bool object) {
    ++i_;
    ws();
    if (i_ < s_.size() && s_[i_] == close) {
      ++i_;
      return true;
    }
    while (true) {
      ws();
      if (object) {
        if (!string()) return false;
        ws();
        if (i_ >= s_.size() || s_[i_++] != ':') return false;
        ws();
      }
      if (!value()) return false;
      ws();
      if (i_ >= s_.size()) return false;
      if (s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (s_[i_] == close) {
        ++i_;
        return true;
      }
      return false;
    }
  }
  const std::string& s_;
  size_t i_ = 0;
};

std::string joinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

/// Rebuilds both texts from a diff: the new text must come out of Same+Added, the old of Same+Removed.
void checkDiffReconstructs(const std::string& oldText, const std::string& newText) {
  std::vector<DiffLine> diff = diffLines(oldText, newText);
  std::string rebuiltOld, rebuiltNew;
  uint32_t oldLine = 0, newLine = 0;
  for (const DiffLine& d : diff) {
    if (d.kind != DiffLine::Kind::Added) {
      rebuiltOld += d.text + "\n";
      REQUIRE(d.oldLine == ++oldLine);
    }
    if (d.kind != DiffLine::Kind::Removed) {
      rebuiltNew += d.text + "\n";
      REQUIRE(d.newLine == ++newLine);
    }
  }
  CHECK(rebuiltOld == oldText);
  CHECK(rebuiltNew == newText);
}

size_t lcsLength(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::vector<size_t>> t(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
  return t[a.size()][b.size()];
}

}  // namespace

TEST_CASE("Trace: nested pipeline events form a tree", "[trace]") {
  ConfigRegistry::global().add({"test.trace.key", AttrValue::Kind::Int, AttrValue::integer(3), "test key"});
  IRModule mod = moduleWithExternalFunctions();
  Traced t = tracedContext(mod);
  t.ctx->setConfig("test.trace.key", AttrValue::integer(9));
  Sequential top("pipeline", {identityPass("First"), std::make_shared<NestingPass>(), identityPass("Last")});
  IRModule out = runPass(top, mod, *t.ctx);

  const Trace& trace = *t.trace;
  // 0 load, 1 pipeline, 2 First, 3 Outer, 4 nested, 5 NegateBodies, 6 Reader, 7 Last
  REQUIRE(trace.events().size() == 8);
  std::vector<std::string> passes;
  for (const TraceEvent& e : trace.events()) passes.push_back(e.pass);
  CHECK(passes == std::vector<std::string>{"load", "pipeline", "First", "Outer", "nested", "NegateBodies", "Reader", "Last"});
  CHECK(trace.topLevel() == std::vector<int>{0, 1});
  CHECK(trace.event(1).children == std::vector<int>{2, 3, 7});
  CHECK(trace.event(3).children == std::vector<int>{4});
  CHECK(trace.event(4).children == std::vector<int>{5, 6});
  CHECK(trace.event(5).parent == 4);
  CHECK(trace.event(5).depth == 3);
  CHECK(trace.event(3).contextName == "root");
  CHECK(trace.event(5).contextName == "Outer.eval");
  CHECK(trace.event(5).contextId != trace.event(3).contextId);

  // Reads and diagnostics land in the innermost event, each with its own context and source.
  REQUIRE(trace.event(3).configReads.size() == 1);
  CHECK(trace.event(3).configReads[0].source == ConfigSource::PassContext);
  CHECK(trace.event(3).configReads[0].value.asInt() == 9);
  REQUIRE(trace.event(6).configReads.size() == 1);
  CHECK(trace.event(6).configReads[0].source == ConfigSource::Default);
  CHECK(trace.event(6).configReads[0].value.asInt() == 3);
  CHECK(trace.event(6).configReads[0].contextName == "Outer.eval");
  CHECK(trace.event(6).diagnostics.size() == 1);
  CHECK(trace.event(4).diagnostics.empty());
  // Skips of the nested function pass are attached to it.
  CHECK(trace.event(5).skips.size() == 3);

  // Status and changed functions from pointer comparison.
  CHECK(trace.event(2).status == EventStatus::Unchanged);
  CHECK(trace.event(5).status == EventStatus::Changed);
  CHECK(trace.event(5).changedFunctions == std::vector<std::string>{"helper", "main"});
  CHECK(trace.event(3).status == EventStatus::Changed);
  CHECK(trace.event(3).after == out);
  CHECK(trace.event(7).before == out);
  CHECK(trace.event(1).wallMs >= trace.event(3).wallMs);
  CHECK(trace.event(3).startMs <= trace.event(5).startMs);
}

TEST_CASE("Trace: snapshots share structure", "[trace]") {
  IRModule mod = moduleWithExternalFunctions();
  Traced t = tracedContext(mod);
  NegateBodies negate;
  IRModule afterNegate = runPass(negate, mod, *t.ctx);
  IRModule afterMark = runPass(*setModuleAttrPass("Mark", "k", 1), afterNegate, *t.ctx);
  runPass(*identityPass("Same"), afterMark, *t.ctx);
  runPass(*lambdaPass("Rebuild", [](const IRModule& m, PassContext&) { return makeModule(m->functions, m->attrs); }), afterMark, *t.ctx);

  const Trace& trace = *t.trace;
  REQUIRE(trace.events().size() == 5);
  const TraceEvent& e1 = trace.event(1);
  CHECK(e1.before == mod);
  for (const char* unchanged : {"byoc", "noopt", "stub"}) CHECK(e1.before->lookup(unchanged) == e1.after->lookup(unchanged));
  CHECK_FALSE(e1.moduleAttrsChanged);
  const TraceEvent& e2 = trace.event(2);
  CHECK(e2.status == EventStatus::Changed);
  CHECK(e2.changedFunctions.empty());
  CHECK(e2.moduleAttrsChanged);
  // Every function object is shared between the snapshots of consecutive events.
  for (const auto& [name, fn] : e2.after->functions) CHECK(e1.after->lookup(name) == fn);
  const TraceEvent& e3 = trace.event(3);
  CHECK(e3.status == EventStatus::Unchanged);
  CHECK(e3.after == e3.before);
  // A new module object holding the same functions and attributes is not a change.
  const TraceEvent& e4 = trace.event(4);
  CHECK(e4.after != e4.before);
  CHECK(e4.status == EventStatus::Unchanged);
}

TEST_CASE("Trace: failures and skipped passes are events", "[trace]") {
  IRModule mod = moduleWithExternalFunctions();
  Traced t = tracedContext(mod);
  t.ctx->optLevel = 1;
  runPass(*identityPass("TooHigh", 3), mod, *t.ctx);
  PassPtr bad = lambdaPass("Bad", [](const IRModule&, PassContext&) -> IRModule { throwError({}, "no way", "test"); });
  CHECK_THROWS_AS(runPass(*bad, mod, *t.ctx), PassFailure);

  const Trace& trace = *t.trace;
  REQUIRE(trace.events().size() == 3);
  CHECK(trace.event(1).status == EventStatus::Skipped);
  CHECK(trace.event(1).skipReason == "opt_level 3 > context opt_level 1");
  CHECK(trace.event(2).status == EventStatus::Failed);
  CHECK(trace.event(2).failure == "error: no way");
  CHECK(trace.event(2).after == mod);

  SECTION("truncate drops events and their links") {
    t.trace->truncate(2);
    CHECK(trace.events().size() == 2);
    t.trace->truncate(0);
    CHECK(trace.events().size() == 1);
    CHECK(trace.event(0).pass == "load");
  }
}

TEST_CASE("Trace: diffLines on known inputs", "[trace]") {
  std::vector<DiffLine> d = diffLines("a\nb\nc\nd\n", "a\nc\nx\nd\ne\n");
  std::string summary;
  for (const DiffLine& l : d) {
    summary += (l.kind == DiffLine::Kind::Same ? ' ' : l.kind == DiffLine::Kind::Added ? '+' : '-') + l.text + ":" +
               std::to_string(l.oldLine) + "/" + std::to_string(l.newLine) + " ";
  }
  CHECK(summary == " a:1/1 -b:2/0  c:3/2 +x:0/3  d:4/4 +e:0/5 ");
  CHECK(diffLines("", "").empty());
  CHECK(diffLines("same\n", "same\n").size() == 1);
  // A missing final newline does not make a line differ.
  CHECK(diffLines("a\nb", "a\nb\n").size() == 2);
  // Within one change, removals come first.
  std::vector<DiffLine> swap = diffLines("x\nold\ny\n", "x\nnew\ny\n");
  REQUIRE(swap.size() == 4);
  CHECK(swap[1].kind == DiffLine::Kind::Removed);
  CHECK(swap[2].kind == DiffLine::Kind::Added);
}

TEST_CASE("Trace: diffLines is minimal and reconstructs both texts", "[trace]") {
  std::mt19937 rng(GENERATE(1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u));
  std::uniform_int_distribution<int> letter(0, 5), len(0, 40);
  std::vector<std::string> a, b;
  for (int i = len(rng); i > 0; --i) a.push_back(std::string(1, static_cast<char>('a' + letter(rng))));
  for (int i = len(rng); i > 0; --i) b.push_back(std::string(1, static_cast<char>('a' + letter(rng))));
  std::string oldText = joinLines(a), newText = joinLines(b);
  checkDiffReconstructs(oldText, newText);
  size_t same = 0;
  for (const DiffLine& l : diffLines(oldText, newText)) same += l.kind == DiffLine::Kind::Same;
  CHECK(same == lcsLength(a, b));
}

TEST_CASE("Trace: diffLines handles 100k-line texts", "[trace]") {
  std::vector<std::string> oldLines, newLines;
  for (int i = 0; i < 100000; ++i) oldLines.push_back("  %" + std::to_string(i) + " = add(%" + std::to_string(i - 1) + ", %c);");
  newLines = oldLines;
  // Scattered edits, insertions and deletions, plus a repeated line everywhere.
  for (int i = 0; i < 100000; i += 997) newLines[static_cast<size_t>(i)] = "  changed " + std::to_string(i);
  newLines.insert(newLines.begin() + 5000, 300, "}");
  newLines.erase(newLines.begin() + 70000, newLines.begin() + 70500);
  std::string oldText = joinLines(oldLines), newText = joinLines(newLines);
  checkDiffReconstructs(oldText, newText);
  size_t added = 0, removed = 0;
  for (const DiffLine& l : diffLines(oldText, newText)) {
    added += l.kind == DiffLine::Kind::Added;
    removed += l.kind == DiffLine::Kind::Removed;
  }
  // 101 edits (+ the ones inside the erased range are not edits any more), 300 insertions, 500 deletions.
  CHECK(added == 101 - 1 + 300);
  CHECK(removed == 101 - 1 + 500);
}

TEST_CASE("Trace: unifiedDiff writes GNU-style hunks", "[trace]") {
  std::string oldText, newText;
  for (int i = 1; i <= 20; ++i) oldText += "l" + std::to_string(i) + "\n";
  newText = oldText;
  newText.replace(newText.find("l3\n"), 3, "L3\n");
  newText += "l21\n";
  CHECK(unifiedDiff(oldText, newText, "a", "b", 2) ==
        "--- a\n+++ b\n"
        "@@ -1,5 +1,5 @@\n l1\n l2\n-l3\n+L3\n l4\n l5\n"
        "@@ -19,2 +19,3 @@\n l19\n l20\n+l21\n");
  CHECK(unifiedDiff(oldText, oldText, "a", "b") == "");
  CHECK(unifiedDiff("", "x\n", "a", "b") == "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n");
  // Changes within two contexts of each other share a hunk.
  std::string near = oldText;
  near.replace(near.find("l6\n"), 3, "L6\n");
  near.replace(near.find("l3\n"), 3, "L3\n");
  std::string diff = unifiedDiff(oldText, near, "a", "b", 1);
  CHECK(diff == "--- a\n+++ b\n@@ -2,6 +2,6 @@\n l2\n-l3\n+L3\n l4\n l5\n-l6\n+L6\n l7\n");
}

TEST_CASE("Trace: diffAttrs reports per-function attribute changes", "[trace]") {
  IRModule before = makeModule({{"main", reluAddFunction({{"Primitive", AttrValue::integer(1)}, {"Inline", AttrValue::integer(1)}})},
                                {"gone", reluAddFunction({{"Compiler", AttrValue::string("ccompiler")}})},
                                {"same", reluAddFunction({{"global_symbol", AttrValue::string("same")}})}},
                               {{"phase", AttrValue::integer(0)}});
  const FunctionNode& main = *as<FunctionNode>(before->lookup("main"));
  IRModule after = makeModule({{"main", withAttrs(main, {{"Primitive", AttrValue::integer(2)}, {"Extern", AttrValue::integer(1)}})},
                               {"same", before->lookup("same")},
                               {"fresh", reluAddFunction({{"target", AttrValue::string("llvm")}})}},
                              {{"phase", AttrValue::integer(1)}, {"target", AttrValue::string("hexagon")}});
  std::vector<AttrChange> changes = diffAttrs(before, after);
  std::vector<std::string> text;
  for (const AttrChange& c : changes) {
    const char* kind = c.kind == AttrChange::Kind::Added ? "+" : c.kind == AttrChange::Kind::Removed ? "-" : "~";
    text.push_back(c.function + " " + kind + c.key + " " + c.oldValue + " -> " + c.newValue);
  }
  CHECK(text == std::vector<std::string>{
                    "<module> ~phase 0 -> 1",
                    "<module> +target  -> \"hexagon\"",
                    "fresh +target  -> \"llvm\"",
                    "gone -Compiler \"ccompiler\" -> ",
                    "main ~Primitive 1 -> 2",
                    "main -Inline 1 -> ",
                    "main +Extern  -> 1",
                });
  CHECK(diffAttrs(before, before).empty());
}

TEST_CASE("Trace: JSON export is valid JSON with every field", "[trace]") {
  ConfigRegistry::global().add({"test.trace.key", AttrValue::Kind::Int, AttrValue::integer(3), "test key"});
  IRModule mod = moduleWithExternalFunctions();
  Traced t = tracedContext(mod);
  Sequential top("pipeline", {std::make_shared<NestingPass>(), identityPass("Skipped \"quoted\"\n", 9)});
  runPass(top, mod, *t.ctx);
  CHECK_THROWS(runPass(*lambdaPass("Bad", [](const IRModule&, PassContext&) -> IRModule { throwError({}, "tab\there"); }), mod, *t.ctx));

  std::string json = traceToJson(*t.trace);
  CHECK(JsonChecker(json).valid());
  for (const char* field : {"\"id\":", "\"parent\":", "\"children\":", "\"depth\":", "\"pass\":", "\"options\":", "\"contextId\":",
                            "\"contextName\":\"Outer.eval\"", "\"status\":\"failed\"", "\"changedFunctions\":[\"helper\",\"main\"]",
                            "\"moduleAttrsChanged\":", "\"wallMs\":", "\"startMs\":", "\"skipReason\":\"opt_level 9 > context opt_level 2\"",
                            "\"configReads\":[{\"key\":\"test.trace.key\",\"value\":3,\"source\":\"default\"",
                            "\"skips\":[{\"pass\":\"NegateBodies\",\"function\":\"byoc\"", "\"diagnostics\":[{\"severity\":\"note\"",
                            "\"failure\":\"error: tab\\there\"", "Skipped \\\"quoted\\\"\\n"})
    CHECK_THAT(json, Catch::Contains(field));

  std::string chrome = traceToChromeJson(*t.trace);
  CHECK(JsonChecker(chrome).valid());
  CHECK_THAT(chrome, Catch::StartsWith("{\"traceEvents\":["));
  CHECK_THAT(chrome, Catch::Contains("{\"name\":\"NegateBodies\",\"cat\":\"pass\",\"ph\":\"X\",\"ts\":"));
  CHECK_THAT(chrome, !Catch::Contains("Skipped"));
  CHECK_FALSE(JsonChecker("{\"a\":}").valid());
  CHECK(attrValueToJson(AttrValue::dict({{"k", AttrValue::array({AttrValue::floating(0.5), AttrValue::none()})}})) == "{\"k\":[0.5,null]}");
}
