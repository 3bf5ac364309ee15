// TVMScript's metadata statement (TVM's show_meta=True) and the constants
// `metadata["relax.expr.Constant"][N]` takes from it. The JSON graph itself is
// decoded by core/text/metadata_graph.cpp; this file finds it in the text,
// turns a decoding error's byte offset into a line and column of the file,
// and checks each reference against its annotation.
#include "core/text/metadata_graph.h"
#include "core/text/tvmscript.h"
#include "core/text/tvmscript_lexer.h"
#include "core/text/tvmscript_module.h"

namespace passlab::tvmscript {

namespace {

/// Where byte `decoded` of decodePyString(quoted) came from in `quoted`
/// (the same escapes, counted rather than decoded).
size_t rawOffsetOf(std::string_view quoted, size_t decoded) {
  size_t quote = (quoted.size() >= 6 && quoted[0] == quoted[1] && quoted[1] == quoted[2]) ? 3 : 1;
  size_t i = quote;
  const size_t end = quoted.size() >= quote ? quoted.size() - quote : quoted.size();
  size_t produced = 0;
  while (i < end && produced < decoded) {
    if (quoted[i] != '\\' || i + 1 >= end) {
      ++i;
      ++produced;
      continue;
    }
    char e = quoted[i + 1];
    if (e == '\n') {
      i += 2;
      continue;
    }
    i += e == 'x' ? 4 : e == 'u' ? 6 : 2;
    ++produced;
  }
  return std::min(i, end);
}

}  // namespace

void ModuleParser::parseMetadataStatement() {
  const PyToken& name = take();  // metadata
  if (metadata_) fail(name, "a second metadata statement; TVM prints one, before the module");
  expect(PyTok::Equal, "'='");
  if (!checkDotted("tvm.ir.load_json") && !checkDotted("tvm.ir.base.load_json"))
    fail(peek(), "expected tvm.ir.load_json(\"\"\"...\"\"\") (TVM's show_meta=True), got " + describe(peek()));
  takeDotted("tvm.ir.load_json");
  expect(PyTok::LParen, "'('");
  const PyToken& str = expect(PyTok::String, "the metadata JSON as a string");
  expect(PyTok::RParen, "')'");
  expectEndOfStatement();
  std::string json = decodePyString(str.text);
  try {
    metadata_ = decodeScriptMetadata(json);
  } catch (const MetadataError& e) {
    // Point at the offending byte inside the string: its line and column in the file.
    size_t raw = rawOffsetOf(str.text, std::min(e.offset(), json.size()));
    PyToken at = str;
    for (size_t i = 0; i < raw; ++i) {
      if (str.text[i] == '\n') {
        ++at.line;
        at.column = 1;
      } else {
        ++at.column;
      }
    }
    at.endLine = at.line;
    at.endColumn = at.column;
    fail(at, e.what());
  }
}

NDArray ModuleParser::metadataConstant(const PyToken& at, int64_t index, const Type& annotation) {
  if (!metadata_) return {};
  if (index < 0 || static_cast<size_t>(index) >= metadata_->constants.size())
    fail(at, "metadata[\"relax.expr.Constant\"][" + std::to_string(index) + "] is not in the metadata statement (it holds " +
                 std::to_string(metadata_->constants.size()) + " constants)");
  const NDArray& data = metadata_->constants[static_cast<size_t>(index)];
  if (!data.defined()) return {};
  const auto* tt = as<TensorTypeNode>(annotation);
  if (tt && !tt->unknownDtype && !tt->unknownRank && !tt->hasDynamicDim() && (tt->shape != data.shape() || tt->dtype != data.dtype()))
    fail(at, "metadata[\"relax.expr.Constant\"][" + std::to_string(index) + "] holds a " +
                 relaxTypeText(tensorType(data.shape(), data.dtype())) + " but is annotated " + relaxTypeText(annotation));
  return data;
}

}  // namespace passlab::tvmscript
