// Vocabularies and the text helpers every layer shares: each enum's names
// table round-trips, and core/support/strings splits and trims one way.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "core/ir/ccompiler_ops.h"
#include "core/ir/severity_names.h"
#include "core/pass/pass.h"
#include "core/support/strings.h"
#include "core/trace/trace.h"
#include "core/workbench/break_kind.h"
#include "core/workbench/setting_keys.h"

using namespace passlab;

namespace {

std::vector<std::string> strings(const std::vector<std::string_view>& views) {
  return std::vector<std::string>(views.begin(), views.end());
}

}  // namespace

TEST_CASE("Strings: split keeps empty pieces, splitList drops them", "[vocab][strings]") {
  CHECK(strings(split("a,,b", ',')) == std::vector<std::string>{"a", "", "b"});
  CHECK(strings(split("", ',')) == std::vector<std::string>{""});
  CHECK(strings(split("a,", ',')) == std::vector<std::string>{"a", ""});
  CHECK(splitList("a,,b,") == std::vector<std::string>{"a", "b"});
  CHECK(splitList("").empty());
  CHECK(splitList("x;y", ';') == std::vector<std::string>{"x", "y"});
}

TEST_CASE("Strings: trim, splitSet and stripAt", "[vocab][strings]") {
  CHECK(trim("  a b \t\r\n") == "a b");
  CHECK(trim(" \t ").empty());
  CHECK(splitSet("b, a,,b ,") == std::set<std::string>{"a", "b"});
  CHECK(stripAt("@main") == "main");
  CHECK(stripAt("main") == "main");
  CHECK(stripAt("@").empty());
  CHECK(stripAt("").empty());
}

TEST_CASE("Vocab: every severity, status, phase, breakpoint kind and setting has one name that parses back", "[vocab]") {
  for (Severity s : {Severity::Note, Severity::Warning, Severity::Error}) CHECK(severityFromName(severityName(s)) == s);
  CHECK_FALSE(severityFromName("fatal"));
  CHECK(eventStatusName(EventStatus::Failed) == "failed");
  CHECK(std::size(kEventStatusNames) == 4);
  CHECK(phaseName(Phase::Lowering) == "lowering");
  CHECK(phaseNumber(Phase::Build) == 3);
  for (int i = 0; i < kBreakKindCount; ++i) {
    BreakKind kind = static_cast<BreakKind>(i);
    CAPTURE(kBreakKindNames[i]);
    CHECK(breakKindFromName(breakKindName(kind)) == kind);
  }
  // The GUI's kind menu shows the table: numeric and remark included.
  CHECK(breakKindList() == "pass, func, attr, diag, numeric or remark");
  CHECK(breakKindFromName("function") == BreakKind::Function);
  for (std::string_view name : kSettingKeyNames) CHECK(settingKeyName(*settingKeyFromName(name)) == name);
  CHECK_FALSE(settingKeyFromName("relay.FuseOps.max_depth"));
}

TEST_CASE("Vocab: the ccompiler ops offered are the C emitter's rows marked offered", "[vocab][byoc]") {
  std::vector<OpId> offered(kCCompilerOps.begin(), kCCompilerOps.end());
  for (const CCompilerOp& row : kCCompilerTable) {
    CAPTURE(static_cast<int>(row.op));
    CHECK(findCCompilerOp(row.op) == &row);
    CHECK(std::count(offered.begin(), offered.end(), row.op) == (row.offered ? 1 : 0));
  }
  // bias_add is written only inside the composite patterns; exp needs libm.
  CHECK(std::count(offered.begin(), offered.end(), OpId::BiasAdd) == 0);
  CHECK(findCCompilerOp(OpId::Exp) == nullptr);
}
