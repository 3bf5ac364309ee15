// The graph walk of the ONNX importer: model parsing and validation, the
// synthetic listing that spans point into, graph inputs and initializers,
// node dispatch to the op converters, outputs and the module.
#include "core/frontend/onnx_importer.h"
#include "core/ir/file_io.h"
#include "core/ir/shape_expr.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <memory>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "core/frontend/onnx_context.h"
#include "core/frontend/onnx_proto_util.h"
#include "core/ir/limits.h"

#include <google/protobuf/io/coded_stream.h>

namespace passlab {

namespace {

using onnx_import::GraphBuilder;
using onnx_import::NeedsConstant;
using onnx_import::NodeContext;
using onnx_import::NodeError;

/// Oldest and newest opsets of the default domain the converters know.
constexpr int64_t kMinOpset = 1;
constexpr int64_t kMaxOpset = 17;

[[noreturn]] void fail(const Span& span, std::string message, std::string rule) { throwError(span, std::move(message), std::move(rule)); }

/// The converter table, built once.
const onnx_import::ConverterTable& converters() {
  static const onnx_import::ConverterTable kTable = [] {
    onnx_import::ConverterTable t;
    onnx_import::addElementwiseConverters(t);
    onnx_import::addActivationConverters(t);
    onnx_import::addNnConverters(t);
    onnx_import::addPoolConverters(t);
    onnx_import::addTransformConverters(t);
    onnx_import::addShapeConverters(t);
    onnx_import::addReduceConverters(t);
    onnx_import::addResizeConverters(t);
    onnx_import::addGatherConverters(t);
    onnx_import::addQuantConverters(t);
    return t;
  }();
  return kTable;
}

bool isDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

/// "float32[1, 3, ?, ?]" for a value's declared type (listing lines).
std::string valueTypeText(const onnx::ValueInfoProto& v) {
  if (!v.type().has_tensor_type()) return "<non-tensor>";
  const auto& tt = v.type().tensor_type();
  std::optional<DataType> d = onnx_import::dtypeFromOnnx(tt.elem_type());
  std::string out = d ? std::string(d->name()) : onnx_import::onnxTypeName(tt.elem_type());
  if (!tt.has_shape()) return out + "[<unknown rank>]";
  out += "[";
  for (int i = 0; i < tt.shape().dim_size(); ++i) {
    const auto& dim = tt.shape().dim(i);
    out += i ? ", " : "";
    out += dim.has_dim_value() ? std::to_string(dim.dim_value()) : dim.has_dim_param() ? dim.dim_param() : "?";
  }
  return out + "]";
}

/// How a node is named in messages: 'name', or #index for unnamed nodes.
std::string nodeLabel(const onnx::NodeProto& node, size_t index) {
  return node.name().empty() ? "#" + std::to_string(index) : "'" + node.name() + "'";
}

/// Builds the IR of one graph.
class Importer {
 public:
  Importer(const onnx::ModelProto& model, std::string displayName, std::string baseDir, const OnnxImportOptions& options)
      : model_(model), graph_(model.graph()), displayName_(std::move(displayName)), baseDir_(std::move(baseDir)), options_(options) {}

  OnnxImport run() {
    size_t values = static_cast<size_t>(graph_.initializer_size() + graph_.input_size() + graph_.node_size());
    values_.reserve(values);
    used_.reserve(values);
    readOpset();
    buildListing();
    Span modelSpan = lineSpan(1);
    for (const auto& f : model_.functions()) localFunctions_.insert(f.domain() + "::" + f.name());
    for (int i = 0; i < graph_.initializer_size(); ++i) addInitializer(i);
    if (graph_.sparse_initializer_size() > 0)
      fail(modelSpan, displayName_ + ": sparse initializers are not supported", "onnx.unsupported");
    for (int i = 0; i < graph_.input_size(); ++i) addInput(i);
    countUses();
    for (int i = 0; i < graph_.node_size(); ++i) convertNode(i);
    return finish();
  }

 private:
  void readOpset() {
    bool found = false;
    for (const auto& o : model_.opset_import()) {
      if (isDefaultDomain(o.domain())) {
        opset_ = o.version();
        found = true;
      }
    }
    // IR version 1-2 models predate opset_import and use opset 1.
    if (!found) opset_ = 1;
    if (opset_ < kMinOpset || opset_ > kMaxOpset)
      fail({}, displayName_ + ": opset " + std::to_string(opset_) + " of the default ONNX domain is not supported (supported: " +
                   std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset) + ")",
           "onnx.unsupported-opset");
  }

  /// One line per initializer, input, node and output: diagnostics quote it.
  void buildListing() {
    std::string text;
    uint32_t line = 0;
    auto add = [&](std::string s) {
      for (char& c : s)
        if (c == '\n' || c == '\r') c = ' ';
      text += s;
      text += '\n';
      return ++line;
    };
    add("# ONNX model " + displayName_ + ": graph \"" + graph_.name() + "\", ir_version " + std::to_string(model_.ir_version()) +
        ", opset " + std::to_string(opset_) + (model_.producer_name().empty() ? "" : ", producer \"" + model_.producer_name() + "\""));
    for (const auto& t : graph_.initializer()) {
      std::vector<int64_t> dims(t.dims().begin(), t.dims().end());
      initializerLines_[t.name()] = add("initializer " + t.name() + ": " + onnx_import::onnxTypeName(t.data_type()) + onnx_import::listText(dims));
    }
    for (const auto& v : graph_.input()) inputLines_[v.name()] = add("input " + v.name() + ": " + valueTypeText(v));
    for (int i = 0; i < graph_.node_size(); ++i) {
      const auto& n = graph_.node(i);
      std::string s = "node " + std::to_string(i) + " " + (n.domain().empty() ? "" : n.domain() + ".") + n.op_type();
      if (!n.name().empty()) s += " \"" + n.name() + "\"";
      s += ": (";
      for (int k = 0; k < n.input_size(); ++k) s += (k ? ", " : "") + n.input(k);
      s += ") -> (";
      for (int k = 0; k < n.output_size(); ++k) s += (k ? ", " : "") + n.output(k);
      s += ")";
      for (const auto& a : n.attribute()) s += " " + a.name() + "=" + onnx_import::describeAttribute(a);
      nodeLines_.push_back(add(std::move(s)));
    }
    for (const auto& v : graph_.output()) outputLines_.push_back(add("output " + v.name() + ": " + valueTypeText(v)));
    listing_ = std::make_shared<const SourceFile>(displayName_, std::move(text));
  }

  Span lineSpan(uint32_t line) const {
    Span s;
    s.file = listing_;
    s.line = s.endLine = line;
    s.column = 1;
    s.endColumn = static_cast<uint32_t>(listing_->lineText(line).size()) + 1;
    return s;
  }

  void addInitializer(int i) {
    const auto& t = graph_.initializer(i);
    Span span = lineSpan(initializerLines_[t.name()]);
    builder_.setSpan(span);
    try {
      values_[t.name()] = builder_.constant(onnx_import::tensorFromProto(t, baseDir_));
    } catch (const std::runtime_error& e) {
      fail(span, "initializer '" + t.name() + "': " + e.what(), "onnx.unsupported-dtype");
    }
  }

  void addInput(int i) {
    const auto& v = graph_.input(i);
    Span span = lineSpan(inputLines_[v.name()]);
    builder_.setSpan(span);
    auto bound = options_.inputValues.find(v.name());
    if (bound != options_.inputValues.end()) {
      values_[v.name()] = builder_.constant(bound->second);
      return;
    }
    // Before IR version 4 every initializer is also listed as an input; it is
    // then a constant with that value, not a parameter.
    if (values_.count(v.name())) return;
    if (!v.type().has_tensor_type())
      fail(span, "graph input '" + v.name() + "' is not a tensor (sequence, map and optional inputs are not supported)",
           "onnx.unsupported");
    const auto& tt = v.type().tensor_type();
    std::optional<DataType> dtype = onnx_import::dtypeFromOnnx(tt.elem_type());
    if (!dtype)
      fail(span, "graph input '" + v.name() + "' has element type " + onnx_import::onnxTypeName(tt.elem_type()) +
                     ", which the IR does not support",
           "onnx.unsupported-dtype");
    std::vector<int64_t> shape;
    std::vector<tir::PrimExpr> symbolic;  // dims named by a dim_param (`batch_size`)
    auto binding = options_.inputShapes.find(v.name());
    if (binding != options_.inputShapes.end()) {
      if (tt.has_shape() && tt.shape().dim_size() != static_cast<int>(binding->second.size()))
        fail(span, "input shape binding for '" + v.name() + "' has rank " + std::to_string(binding->second.size()) +
                       " but the model declares " + valueTypeText(v),
             "onnx.input-shape");
      shape = binding->second;
      for (int d = 0; tt.has_shape() && d < tt.shape().dim_size(); ++d) {
        const auto& dim = tt.shape().dim(d);
        if (dim.has_dim_value() && dim.dim_value() != shape[d])
          fail(span, "input shape binding " + onnx_import::listText(shape) + " for '" + v.name() + "' contradicts the declared " +
                         valueTypeText(v),
               "onnx.input-shape");
      }
    } else {
      if (!tt.has_shape())
        fail(span, "graph input '" + v.name() + "' has unknown rank; bind its shape (--input-shape " + v.name() + "=d0,d1,...)",
             "onnx.dynamic-shape");
      for (int d = 0; d < tt.shape().dim_size(); ++d) {
        const auto& dim = tt.shape().dim(d);
        if (!dim.has_dim_value() && dim.has_dim_param() && !dim.dim_param().empty()) {
          // A named dimension becomes a shape variable, one per name across
          // the inputs, as TVM's importer does: the model runs for any extent.
          symbolic.resize(static_cast<size_t>(tt.shape().dim_size()));
          symbolic[static_cast<size_t>(d)] = shapeVariable(dim.dim_param());
          shape.push_back(kDynamicDim);
          continue;
        }
        if (!dim.has_dim_value() || dim.dim_value() < 0)
          fail(span, "graph input '" + v.name() + "' has dynamic dimension " + std::to_string(d) +
                         (dim.has_dim_param() ? " ('" + dim.dim_param() + "')" : "") + " in " + valueTypeText(v) +
                         "; bind it (--input-shape " + v.name() + "=d0,d1,...)",
               "onnx.dynamic-shape");
        shape.push_back(dim.dim_value());
      }
    }
    for (size_t d = 0; d < shape.size(); ++d)
      if (shape[d] < 0 && !(d < symbolic.size() && symbolic[d]))
        fail(span, "input shape for '" + v.name() + "' has a negative dimension", "onnx.input-shape");
    std::string name = sanitizeOnnxName(v.name());
    // Distinct ONNX names can sanitize alike ("a.b", "a_b"): keep params distinct.
    while (!paramSpellings_.insert(name).second) name += "_";
    Type type = symbolic.empty() ? tensorType(shape, *dtype) : tensorType(shape, *dtype, symbolic);
    Var var = makeVar(name, type, false, span);
    var->checkedType = type;
    builder_.registerParam(var.get(), v.name());
    params_.push_back(var);
    info_.paramNames.push_back(v.name());
    values_[v.name()] = var;
  }

  /// The shape variable of ONNX dim_param `param` (the same node for every use).
  tir::PrimExpr shapeVariable(const std::string& param) {
    auto it = dimVars_.find(param);
    if (it != dimVars_.end()) return it->second;
    std::string name = sanitizeOnnxName(param);
    for (char& c : name)
      if (c == '.') c = '_';
    tir::Var v = shape::makeShapeVar(name);
    dimVars_.emplace(param, v);
    return v;
  }
  std::map<std::string, tir::Var> dimVars_;

  /// Which value names some node or the graph output consumes.
  void countUses() {
    for (const auto& n : graph_.node())
      for (const auto& in : n.input()) used_.insert(in);
    for (const auto& o : graph_.output()) used_.insert(o.name());
  }

  void convertNode(int index) {
    const auto& node = graph_.node(index);
    Span span = lineSpan(nodeLines_[index]);
    builder_.setSpan(span);
    int64_t opset = opset_;
    std::string label = nodeLabel(node, static_cast<size_t>(index));
    if (std::find(info_.opTypes.begin(), info_.opTypes.end(), node.op_type()) == info_.opTypes.end())
      info_.opTypes.push_back(node.op_type());
    if (!isDefaultDomain(node.domain())) {
      bool local = localFunctions_.count(node.domain() + "::" + node.op_type()) != 0;
      fail(span,
           "unsupported ONNX op '" + node.op_type() + "' of domain '" + node.domain() + "' in node " + label + " (opset " +
               std::to_string(opset) + (local ? "; model-local functions are not supported)" : ")"),
           "onnx.unsupported-op");
    }
    auto it = converters().find(node.op_type());
    if (it == converters().end())
      fail(span, "unsupported ONNX op '" + node.op_type() + "' in node " + label + " (opset " + std::to_string(opset) + ")",
           "onnx.unsupported-op");

    std::vector<Expr> inputs;
    for (const auto& name : node.input()) {
      if (name.empty()) {
        inputs.push_back(nullptr);
        continue;
      }
      auto v = values_.find(name);
      if (v == values_.end())
        fail(span, node.op_type() + " node " + label + ": input '" + name +
                       "' is not produced by any earlier node, initializer or graph input (is the graph topologically sorted?)",
             "onnx.invalid");
      inputs.push_back(v->second);
    }
    std::vector<bool> outputUsed;
    for (const auto& name : node.output()) outputUsed.push_back(!name.empty() && used_.count(name));

    std::string prefix = node.op_type() + " node " + label + " (opset " + std::to_string(opset) + "): ";
    std::vector<Expr> outputs;
    std::vector<std::string> unread;
    try {
      NodeContext ctx(builder_, node, opset, std::move(inputs), outputUsed);
      outputs = it->second(ctx);
      unread = ctx.unreadAttrs();
    } catch (const NodeError& e) {
      fail(span, prefix + e.message, e.rule);
    } catch (const NeedsConstant& e) {
      std::string names;
      for (const auto& n : e.inputs) names += (names.empty() ? "'" : ", '") + n + "'";
      Diagnostic d;
      d.span = span;
      d.rule = "onnx.needs-constant";
      d.message = prefix + e.what + " must be known at import, but it depends on graph input" + (e.inputs.size() > 1 ? "s " : " ") +
                  names + " (bind " + (e.inputs.size() > 1 ? "them" : "it") + " to a constant value)";
      throw OnnxNeedsConstantError(std::move(d), e.inputs);
    } catch (const OnnxNeedsConstantError&) {
      throw;
    } catch (const DiagnosticError& e) {
      fail(span, prefix + e.diagnostics().front().message, e.diagnostics().front().rule);
    } catch (const std::exception& e) {
      // A converter bug must still surface as a located diagnostic, not escape
      // the importer as an unexpected exception type.
      fail(span, prefix + "internal error: " + e.what(), "onnx.internal");
    }
    if (!unread.empty()) {
      // Every attribute a converter understands is read; any other one could
      // change the meaning of the node, so it is an error, never ignored.
      std::string names;
      for (const auto& u : unread) names += (names.empty() ? "'" : ", '") + u + "'";
      fail(span, prefix + "unsupported attribute" + (unread.size() > 1 ? "s " : " ") + names, "onnx.unsupported-attribute");
    }
    for (int k = 0; k < node.output_size(); ++k) {
      const std::string& name = node.output(k);
      if (name.empty()) continue;
      Expr value = static_cast<size_t>(k) < outputs.size() ? outputs[k] : nullptr;
      if (!value) {
        if (outputUsed[k])
          fail(span, prefix + "unsupported output " + std::to_string(k) + " ('" + name + "'): the importer does not produce it",
               "onnx.unsupported-attribute");
        continue;
      }
      values_[name] = value;
    }
  }

  OnnxImport finish() {
    std::vector<Expr> results;
    for (int i = 0; i < graph_.output_size(); ++i) {
      const auto& o = graph_.output(i);
      auto v = values_.find(o.name());
      if (v == values_.end())
        fail(lineSpan(outputLines_[i]), "graph output '" + o.name() + "' is not produced by any node", "onnx.invalid");
      if (o.type().has_tensor_type()) {
        std::optional<DataType> declared = onnx_import::dtypeFromOnnx(o.type().tensor_type().elem_type());
        const auto* t = as<TensorTypeNode>(v->second->checkedType);
        if (declared && t && t->dtype != *declared)
          fail(lineSpan(outputLines_[i]),
               "graph output '" + o.name() + "' is declared " + valueTypeText(o) + " but the imported graph computes " +
                   typeToString(v->second->checkedType),
               "onnx.invalid");
      }
      results.push_back(v->second);
      info_.outputNames.push_back(o.name());
    }
    if (results.empty()) fail(lineSpan(1), displayName_ + ": the graph has no outputs", "onnx.invalid");
    builder_.setSpan(lineSpan(outputLines_.front()));
    Expr body = results.size() == 1 ? results[0] : builder_.tuple(results);
    Type ret = body->checkedType;
    std::vector<Type> paramTypes;
    for (const Var& p : params_) paramTypes.push_back(p->annotation);
    Function fn = makeFunction(params_, body, ret, {}, lineSpan(1));
    fn->checkedType = funcType(std::move(paramTypes), ret);
    AttrDict attrs{{module_attr::kPhase, AttrValue::integer(0)}};
    info_.opset = opset_;
    info_.nodeCount = static_cast<size_t>(graph_.node_size());
    return {makeModule({{options_.entryName, fn}}, std::move(attrs)), std::move(info_)};
  }

  const onnx::ModelProto& model_;
  const onnx::GraphProto& graph_;
  std::string displayName_;
  std::string baseDir_;
  const OnnxImportOptions& options_;
  int64_t opset_ = 0;
  std::shared_ptr<const SourceFile> listing_;
  std::unordered_map<std::string, uint32_t> initializerLines_, inputLines_;
  std::vector<uint32_t> nodeLines_, outputLines_;
  std::unordered_set<std::string> localFunctions_, used_, paramSpellings_;
  GraphBuilder builder_;
  std::unordered_map<std::string, Expr> values_;
  std::vector<Var> params_;
  OnnxModelInfo info_;
};

std::string directoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

/// Reads a whole file; an unreadable one is a DiagnosticError naming it.
std::string readFileBytes(const std::string& path) {
  if (std::optional<std::string> why = unreadableFileReason(path)) {
    Diagnostic d;
    d.message = path + ": cannot open file (" + *why + ")";
    d.rule = "onnx.parse";
    throw DiagnosticError(std::move(d));
  }
  return readRegularFile(path);
}

/// Parses `bytes` allowing at most `depth` nested messages. protobuf's
/// default of 100 stops at about 30 levels of If-in-If, a depth real exported
/// control flow can reach; the limit is passlab's parser nesting limit.
bool parseWithDepthLimit(std::string_view bytes, int depth, onnx::ModelProto& model) {
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()), static_cast<int>(bytes.size()));
  in.SetRecursionLimit(depth);
  return model.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
}

/// Parses and validates a serialized model; errors name `displayName`.
void parseModel(std::string_view bytes, const std::string& displayName, onnx::ModelProto& model) {
  auto fileError = [&displayName](const std::string& message) {
    Diagnostic d;
    d.message = displayName + ": " + message;
    d.rule = "onnx.parse";
    throw DiagnosticError(std::move(d));
  };
  if (bytes.empty()) fileError("empty file, not an ONNX model");
  if (bytes.size() > static_cast<size_t>(INT32_MAX)) fileError("file larger than 2 GiB; protobuf cannot parse it");
  if (!parseWithDepthLimit(bytes, limits::kMaxNestingDepth, model)) {
    // A second parse with room to spare tells a model nested too deeply (If
    // and Loop subgraphs inside each other) from corrupt bytes; protobuf's
    // own message says only "failed to parse". The bound keeps its recursion
    // far from the stack's end.
    onnx::ModelProto probe;
    if (parseWithDepthLimit(bytes, 4 * limits::kMaxNestingDepth, probe))
      fileError("the model nests messages (subgraphs of If/Loop nodes inside each other) deeper than " +
                std::to_string(limits::kMaxNestingDepth) + " levels, passlab's nesting limit (docs/limits.md)");
    fileError("not a valid ONNX model: the protobuf data is corrupt or truncated (or nests messages more than " +
              std::to_string(4 * limits::kMaxNestingDepth) + " levels deep)");
  }
  // Arbitrary bytes occasionally parse as a protobuf message; a real model has
  // an IR version and a graph with at least an output.
  if (model.ir_version() <= 0 || !model.has_graph() || model.graph().output_size() == 0)
    fileError("not a valid ONNX model: no IR version or no graph with outputs (corrupt, truncated or not ONNX)");
}

OnnxImport importParsed(std::string_view bytes, const std::string& displayName, const std::string& baseDir,
                        const OnnxImportOptions& options) {
  onnx::ModelProto model;
  parseModel(bytes, displayName, model);
  return Importer(model, displayName, baseDir, options).run();
}

}  // namespace

std::string sanitizeOnnxName(std::string_view name) {
  std::string out;
  out.reserve(name.size() + 1);
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    out += ok ? c : '_';
  }
  if (out.empty() || (out[0] >= '0' && out[0] <= '9')) out.insert(out.begin(), 'v');
  return out;
}

OnnxImport importOnnxBytes(std::string_view bytes, const std::string& displayName, const OnnxImportOptions& options) {
  return importParsed(bytes, displayName, ".", options);
}

OnnxImport importOnnxWithInfo(const std::string& path, const OnnxImportOptions& options) {
  std::string bytes = readFileBytes(path);
  return importParsed(bytes, path, directoryOf(path), options);
}

OnnxModelSummary summarizeOnnxModel(const std::string& path) {
  std::string bytes = readFileBytes(path);
  onnx::ModelProto model;
  parseModel(bytes, path, model);
  OnnxModelSummary summary;
  summary.opset = 1;
  for (const auto& o : model.opset_import())
    if (isDefaultDomain(o.domain())) summary.opset = o.version();
  std::unordered_set<std::string> initializers;
  for (const auto& t : model.graph().initializer()) initializers.insert(t.name());
  for (const auto& v : model.graph().input())
    if (!initializers.count(v.name())) summary.runtimeInputs.push_back(v.name());
  for (const auto& n : model.graph().node())
    if (std::find(summary.opTypes.begin(), summary.opTypes.end(), n.op_type()) == summary.opTypes.end())
      summary.opTypes.push_back(n.op_type());
  return summary;
}

IRModule importOnnx(const std::string& path, const OnnxImportOptions& options) { return importOnnxWithInfo(path, options).module; }

std::pair<std::string, std::vector<int64_t>> parseInputShapeBinding(std::string_view text) {
  auto bad = [&text](const std::string& why) {
    Diagnostic d;
    d.message = "malformed input shape binding '" + std::string(text) + "': " + why + " (expected name=d0,d1,...)";
    d.rule = "onnx.input-shape";
    throw DiagnosticError(std::move(d));
  };
  size_t eq = text.rfind('=');
  if (eq == std::string_view::npos || eq == 0) bad("no name before '='");
  std::string name(text.substr(0, eq));
  std::vector<int64_t> dims;
  std::string_view rest = text.substr(eq + 1);
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    int64_t value = 0;
    auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (ec != std::errc() || ptr != item.data() + item.size() || item.empty() || value < 0)
      bad("'" + std::string(item) + "' is not a non-negative dimension");
    dims.push_back(value);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
    if (rest.empty()) bad("trailing ','");
  }
  return {std::move(name), std::move(dims)};
}

}  // namespace passlab
