// Placeholder for the TIR half of TVMScript until it is implemented (the
// "tir" branch replaces this file): loading or printing a PrimFunc in
// TVMScript is refused with a clear, located error.
#include "core/text/tvmscript_tir.h"

namespace passlab::tvmscript {

PrimFunc parseScriptPrimFunc(ScriptParser& p, const PrimFuncDecorator& decorator, std::string* /*name*/) {
  p.fail(decorator.at, "TIR in TVMScript not implemented yet");
}

void printScriptPrimFunc(text::TextWriter& /*w*/, const ScriptPrintContext& /*ctx*/, const std::string& name,
                         const PrimFuncNode& /*fn*/) {
  throwError(Span{}, "TIR in TVMScript not implemented yet (PrimFunc '" + name + "')", "print");
}

}  // namespace passlab::tvmscript
