// passlab: command-line entry point. Kept thin: argument parsing and exit codes;
// the work is done by the core library.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

#include "core/analysis/type_infer.h"
#include "core/ir/diagnostic.h"
#include "core/text/parser.h"
#include "core/text/printer.h"

namespace {

void printUsage(std::FILE* out) {
  std::fputs(
      "usage: passlab FILE [-o OUT]\n"
      "  Parses and type-checks FILE (Relay text) and writes the module text to OUT\n"
      "  (stdout when OUT is '-' or absent). Exit status 1 on bad input.\n",
      out);
}

}  // namespace

int main(int argc, char** argv) {
  std::string input;
  std::string output = "-";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      printUsage(stdout);
      return 0;
    }
    if (arg == "-o") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "passlab: error: -o needs a file name\n");
        return 2;
      }
      output = argv[++i];
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      std::fprintf(stderr, "passlab: error: unknown option '%s'\n", arg.c_str());
      printUsage(stderr);
      return 2;
    } else if (input.empty()) {
      input = arg;
    } else {
      std::fprintf(stderr, "passlab: error: more than one input file ('%s' and '%s')\n", input.c_str(), arg.c_str());
      return 2;
    }
  }
  if (input.empty()) {
    printUsage(stderr);
    return 2;
  }
  try {
    passlab::IRModule mod = input == "-" ? passlab::parseModule(std::string(std::istreambuf_iterator<char>(std::cin), {}), "<stdin>")
                                         : passlab::parseModuleFile(input);
    mod = passlab::inferTypes(mod);
    std::string text = passlab::printModule(mod);
    if (output == "-") {
      std::fwrite(text.data(), 1, text.size(), stdout);
    } else {
      std::ofstream out(output, std::ios::binary);
      out << text;
      if (!out) {
        std::fprintf(stderr, "passlab: error: cannot write '%s'\n", output.c_str());
        return 1;
      }
    }
  } catch (const passlab::DiagnosticError& e) {
    std::fprintf(stderr, "%s\n", e.renderAll().c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "passlab: internal error: %s\n", e.what());
    return 1;
  }
  return 0;
}
