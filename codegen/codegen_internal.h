// Helpers shared by the codegen/ sources (internal; no LLVM types).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "codegen/codegen.h"

namespace passlab::codegen {

/// Compiles only the PrimFuncs `only` (no entry, no external C) for `target`.
Artifacts buildFunctions(const IRModule& mod, const Target& target, const BuildOptions& options, std::vector<std::string> only);

/// Why `cpu` is no processor of `kind` that LLVM knows, listing the known
/// ones (Hexagon) or examples and the host's (x86 and other hosts); nullopt
/// when it is valid. An unchecked -mcpu would build for a generic CPU.
std::optional<std::string> unknownCpuMessage(TargetKind kind, const std::string& cpu);

/// Compiles C source with clang-14 for the host (PIC) or for the Hexagon
/// CPU of `target` (harness, runtime and ccompiler functions must match the
/// kernels' CPU); returns the object bytes.
std::vector<uint8_t> compileC(const std::string& source, const Target& target, const std::string& name);

/// Runs `argv` (argv[0] looked up in PATH) with stdin from `inFile` ("" = /dev/null)
/// and stdout to `outFile` ("" = captured into the error text); throws
/// CodegenError with the tool's stderr when it fails or exits non-zero.
void runTool(const std::vector<std::string>& argv, const std::string& inFile = "", const std::string& outFile = "");


}  // namespace passlab::codegen
