// Constants by reference in the IR view: which reference lies under a column
// of a printed line (both syntaxes, edge cases), and the tooltip and console
// line a hover and a click give. No ImGui, no display.
#include <catch2/catch.hpp>

#include <string>

#include "core/text/constant_refs.h"
#include "gui/model/constant_ref_span.h"
#include "tests/test_util.h"

using namespace passlab;
using namespace passlab::gui;
using passlab::testing::sharedBuiltinRegistry;

namespace {

const std::string kRelayLine = "  %0 = nn.conv2d(%x, meta[relay.Constant][12] /* ty=Tensor[(4, 3, 3, 3), float32] */);";
const std::string kScriptLine = "    lv = R.add(x, metadata[\"relax.expr.Constant\"][3])";
const std::string kTwoLine = "  %1 = add(meta[relay.Constant][0], meta[relay.Constant][7]);";

/// Column of the first byte of `needle` in `line` (plus `offset`).
size_t col(const std::string& line, const std::string& needle, size_t offset = 0) {
  size_t at = line.find(needle);
  REQUIRE(at != std::string::npos);
  return at + offset;
}

}  // namespace

TEST_CASE("Constant references: the one under a column, both syntaxes", "[gui][constants]") {
  struct Row {
    std::string name;
    std::string line;
    size_t column;
    int32_t number;  // -1: no reference there
    bool tvmscript;
  };
  const std::string relayRef = "meta[relay.Constant][12]";
  const std::string scriptRef = "metadata[\"relax.expr.Constant\"][3]";
  auto row = GENERATE_REF(values<Row>({
      {"Relay: first byte", kRelayLine, col(kRelayLine, relayRef), 12, false},
      {"Relay: inside the kind", kRelayLine, col(kRelayLine, "Constant"), 12, false},
      {"Relay: on the number", kRelayLine, col(kRelayLine, "12]"), 12, false},
      {"Relay: on the closing bracket", kRelayLine, col(kRelayLine, relayRef, relayRef.size() - 1), 12, false},
      {"Relay: just after it", kRelayLine, col(kRelayLine, relayRef, relayRef.size()), -1, false},
      {"Relay: just before it", kRelayLine, col(kRelayLine, relayRef) - 1, -1, false},
      {"Relay: in the type comment", kRelayLine, col(kRelayLine, "Tensor"), -1, false},
      {"Relay: past the end of the line", kRelayLine, kRelayLine.size() + 5, -1, false},
      {"TVMScript: first byte", kScriptLine, col(kScriptLine, scriptRef), 3, true},
      {"TVMScript: in the quoted kind", kScriptLine, col(kScriptLine, "relax.expr"), 3, true},
      {"TVMScript: on the closing bracket", kScriptLine, col(kScriptLine, scriptRef, scriptRef.size() - 1), 3, true},
      {"TVMScript: on the call's paren", kScriptLine, col(kScriptLine, scriptRef, scriptRef.size()), -1, false},
      {"two on a line: the first", kTwoLine, col(kTwoLine, "[0]", 1), 0, false},
      {"two on a line: the second", kTwoLine, col(kTwoLine, "[7]", 1), 7, false},
      {"two on a line: between them", kTwoLine, col(kTwoLine, ", meta"), -1, false},
      {"a variable named %meta", "  %meta = add(%x, 1f);", 3, -1, false},
      {"%meta indexed like a reference", "  %2 = %meta[relay.Constant][4];", 7, -1, false},
      {"a name ending in meta", "  %2 = my_meta[relay.Constant][4];", 10, -1, false},
      {"another metadata kind", "  on_device(%x, virtual_device=meta[VirtualDevice][0])", 35, -1, false},
      {"an unfinished reference", "  %2 = add(meta[relay.Constant][", 12, -1, false},
      {"no number", "  %2 = add(meta[relay.Constant][], 1f)", 12, -1, false},
      {"a line start", "meta[relay.Constant][5]", 0, 5, false},
      {"an empty line", "", 0, -1, false},
  }));
  INFO(row.name);
  std::optional<ConstantRefSpan> span = constantRefAt(row.line, row.column);
  if (row.number < 0) {
    CHECK_FALSE(span);
  } else {
    REQUIRE(span);
    CHECK(span->number == row.number);
    CHECK(span->tvmscript == row.tvmscript);
    CHECK(row.line.substr(span->begin, span->end - span->begin) == constantRefText(*span));
    CHECK(span->begin <= row.column);
    CHECK(row.column < span->end);
  }
}

TEST_CASE("Constant references: every one in a line, far into a long line", "[gui][constants]") {
  std::vector<ConstantRefSpan> two = constantRefsIn(kTwoLine);
  REQUIRE(two.size() == 2);
  CHECK(two[0].number == 0);
  CHECK(two[1].number == 7);
  CHECK(two[0].end <= two[1].begin);
  CHECK(constantRefsIn("%meta[relay.Constant][1] x_meta[relay.Constant][2] meta[VirtualDevice][0]").empty());
  // A reference 100k bytes into a line (a fused module prints long lines).
  std::string longLine(100000, 'x');
  longLine += " meta[relay.Constant][42]";
  const size_t at = longLine.find("meta[");
  CHECK(constantRefAt(longLine, at + 4)->number == 42);
  CHECK_FALSE(constantRefAt(longLine, at - 1));
  // Names that end in `meta` just before the look-back window still are not references.
  std::string named(50, 'y');
  named += "meta[relay.Constant][1]";
  CHECK_FALSE(constantRefAt(named, named.size() - 2));
}

TEST_CASE("Constant references: the hover shows `show const N`, a click runs it", "[gui][constants]") {
  Workbench wb(sharedBuiltinRegistry());
  std::string weights;
  for (int i = 0; i < 24; ++i) weights += (i ? ", " : "") + std::to_string(i);
  wb.loadText("#[version = \"0.0.5\"]\n"
              "def @main(%x: Tensor[(2, 3, 4), float32]) {\n"
              "  add(%x, const(Tensor[(2, 3, 4), float32], [" + weights + "]))\n"
              "}\n",
              "weights.relay");
  const std::string text = wb.moduleText(0, Side::After);
  const size_t at = text.find("meta[relay.Constant][0]");
  REQUIRE(at != std::string::npos);
  const std::string line = text.substr(text.rfind('\n', at) + 1, text.find('\n', at) - text.rfind('\n', at) - 1);
  std::optional<ConstantRefSpan> span = constantRefAt(line, line.find("Constant"));
  REQUIRE(span);
  const std::string tip = constantTooltip(wb, *span);
  CHECK(tip == "meta[relay.Constant][0]: " + describeConstant(wb.numberedConstant(0)));
  CHECK(tip.find("min") != std::string::npos);
  CHECK(constantCommand(*span) == "show const 0");
  // The same N in TVMScript names the same constant, spelled as TVMScript spells it.
  ConstantRefSpan script = *span;
  script.tvmscript = true;
  CHECK(constantTooltip(wb, script).rfind("metadata[\"relax.expr.Constant\"][0]: ", 0) == 0);
  // A number no constant has: the workbench's message, not an exception.
  ConstantRefSpan missing = *span;
  missing.number = 9;
  CHECK(constantTooltip(wb, missing).find("no constant meta[relay.Constant][9]") != std::string::npos);
}
