// Golden corpus: tests/golden/NAME.relay is parsed, type-checked and printed;
// the result must equal tests/golden/NAME.expected byte for byte, and every
// printed module must survive print -> parse -> print unchanged.
//
// To regenerate after an intended change: PASSLAB_UPDATE_GOLDEN=1 ctest -L test_golden,
// then read the diff of tests/golden/*.expected before committing.
#include <catch2/catch.hpp>

#include "core/analysis/structural_equal.h"
#include "tests/text_test_util.h"

using namespace passlab;
using namespace passlab::testing;

TEST_CASE("Golden: the corpus holds at least 30 programs, each with an expected file", "[golden]") {
  std::vector<std::string> names = corpusNames("golden", ".relay");
  CHECK(names.size() >= 30);
  for (const std::string& name : names) {
    CAPTURE(name);
    CHECK((updatingGoldens() || std::filesystem::exists(corpusDir("golden") / (name + ".expected"))));
  }
}

TEST_CASE("Golden: each program prints as expected after type inference", "[golden]") {
  std::string name = GENERATE(from_range(corpusNames("golden", ".relay")));
  CAPTURE(name);
  std::string text = readFile(corpusDir("golden") / (name + ".relay"));
  IRModule mod = inferTypes(parseModule(text, name + ".relay"));
  std::string printed = printModule(mod);
  auto expectedPath = corpusDir("golden") / (name + ".expected");
  if (updatingGoldens()) writeFile(expectedPath, printed);
  REQUIRE(std::filesystem::exists(expectedPath));
  CHECK(printed == readFile(expectedPath));
}

TEST_CASE("Golden: print -> parse -> print is the identity for each program", "[golden]") {
  std::string name = GENERATE(from_range(corpusNames("golden", ".relay")));
  CAPTURE(name);
  IRModule mod = parseModule(readFile(corpusDir("golden") / (name + ".relay")), name + ".relay");
  // As a file is written: large constants by reference, their data in the #[metadata] section.
  PrintOptions file;
  file.metadataSection = true;

  SECTION("without type comments, before type inference") {
    PrintOptions plain = file;
    plain.typeComments = false;
    std::string once = printModule(mod, plain);
    IRModule reparsed = parseModule(once, "printed.relay");
    CHECK(printModule(reparsed, plain) == once);
    CHECK(structuralEqual(reparsed, mod));
  }
  SECTION("with type comments, after type inference") {
    IRModule typed = inferTypes(mod);
    std::string once = printModule(typed, file);
    IRModule reparsed = inferTypes(parseModule(once, "printed.relay"));
    CHECK(printModule(reparsed, file) == once);
  }
}

TEST_CASE("Golden: printing is deterministic across parses of the same text", "[golden]") {
  std::string name = GENERATE(from_range(corpusNames("golden", ".relay")));
  CAPTURE(name);
  std::string text = readFile(corpusDir("golden") / (name + ".relay"));
  std::string a = printModule(inferTypes(parseModule(text, "a.relay")));
  std::string b = printModule(inferTypes(parseModule(text, "b.relay")));
  CHECK(a == b);
}
