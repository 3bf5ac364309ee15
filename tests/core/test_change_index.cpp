// ChangeIndex (core/trace/change_index.h): the one cache of node matchings and
// change summaries that every face asks.
#include <catch2/catch.hpp>

#include <string>

#include "core/analysis/type_infer.h"
#include "core/text/parser.h"
#include "core/trace/change_index.h"

using namespace passlab;

namespace {

IRModule moduleWith(const std::string& op) {
  return inferTypes(parseModule(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {
  %0 = )" + op + R"((%x);
  add(%0, %x)
}
)",
                                op + ".relay"));
}

}  // namespace

TEST_CASE("ChangeIndex: a pair is matched once and its summary is the matcher's", "[change-index]") {
  ChangeIndex index;
  IRModule a = moduleWith("exp"), b = moduleWith("log");
  auto first = index.edits(a, b);
  CHECK(index.edits(a, b) == first);
  CHECK(index.summary(a, b) == changeSummary(*matchModules(a, b)));
  CHECK(index.summary(a, b) == index.summary(a, b));
  // A different pair (even the reverse one) is its own entry.
  CHECK(index.edits(b, a) != first);
}

TEST_CASE("ChangeIndex: only the most recently used matchings are kept", "[change-index]") {
  ChangeIndex index(2);
  IRModule a = moduleWith("exp"), b = moduleWith("log"), c = moduleWith("sqrt");
  auto ab = index.edits(a, b);
  auto bc = index.edits(b, c);
  CHECK(index.edits(a, b) == ab);  // now the most recent: (b, c) is next to go
  index.edits(a, c);
  CHECK(index.edits(a, b) == ab);
  CHECK(index.edits(b, c) != bc);  // evicted and matched again
}

TEST_CASE("ChangeIndex: the full edit script is not cached and clear forgets everything", "[change-index]") {
  ChangeIndex index;
  IRModule a = moduleWith("exp"), b = moduleWith("log");
  CHECK(index.allEdits(a, b) != index.allEdits(a, b));
  CHECK(index.allEdits(a, b)->edits.size() >= index.edits(a, b)->edits.size());
  auto before = index.edits(a, b);
  index.clear();
  CHECK(index.edits(a, b) != before);
}
