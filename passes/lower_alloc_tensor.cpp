// LowerAllocTensor (see lower_alloc_tensor.h).
#include "passes/lower_alloc_tensor.h"

#include "core/analysis/type_infer.h"
#include "core/ir/diagnostic.h"
#include "core/ir/limits.h"
#include "core/ir/shape_attr.h"
#include "passes/opt_util.h"
#include "core/pass/registry.h"
#include "passes/relax_bindings.h"

namespace passlab {

namespace {

using relax_bindings::FlatBinding;
using relax_bindings::FlatBody;

Function lowerFunction(const Function& fn, relax_bindings::NameSupply& names) {
  FlatBody body = relax_bindings::flatten(fn->body);
  FlatBody out;
  out.result = body.result;
  bool changed = false;
  for (const FlatBinding& b : body.bindings) {
    const CallNode* call = opt_util::callTo(b.value, OpId::BuiltinAllocTensor);
    if (!call) {
      out.bindings.push_back(b);
      continue;
    }
    const AttrValue& shapeAttr = opt_util::callAttr(*call, "shape");
    std::optional<DataType> dtype = DataType::parse(opt_util::callAttr(*call, "dtype").asString());
    AttrValue size;
    if (shape::attrHasSymbolic(shapeAttr) && dtype) {
      // TVM's size: the dtype's bytes times each dim in order (4 * m * n).
      shape::Dim bytes = shape::constant(dtype->bytes());
      for (const shape::Dim& d : shape::dimsOfAttr(shapeAttr, {})) {
        if (!d) throwError(call->span, "LowerAllocTensor: the allocation's shape has an unknown dimension", "lower.alloc");
        bytes = shape::asConstant(bytes) == 1 ? d : tir::binary(tir::BinaryOp::Mul, bytes, d);
      }
      size = shape::toAttrList({bytes});
    } else {
      std::vector<int64_t> shape = relax_bindings::intListOf(shapeAttr);
      std::optional<int64_t> count = limits::checkedElementCount(shape);
      if (!dtype || !count) throwError(call->span, "LowerAllocTensor: the allocation's shape or dtype is not static", "lower.alloc");
      size = AttrValue::ints({*count * dtype->bytes()});
    }
    const AttrValue& device = opt_util::callAttr(*call, "runtime_device_index");
    AttrDict storageAttrs;
    storageAttrs.set("size", size);
    storageAttrs.set("virtual_device_index", device);
    storageAttrs.set("storage_scope", opt_util::callAttr(*call, "storage_scope"));
    storageAttrs.set("dtype", AttrValue::string("uint8"));
    FlatBinding storage = relax_bindings::bindingLike(b, names, "storage", objectType(),
                                                      makeOpCall(OpId::RelaxMemAllocStorage, {}, storageAttrs, call->span));
    AttrDict tensorAttrs;
    tensorAttrs.set("offset", AttrValue::integer(0));
    tensorAttrs.set("shape", opt_util::callAttr(*call, "shape"));
    tensorAttrs.set("dtype", opt_util::callAttr(*call, "dtype"));
    tensorAttrs.set("runtime_device_ind", device);
    FlatBinding rebound = b;
    rebound.value = makeOpCall(OpId::RelaxMemAllocTensor, {storage.var}, tensorAttrs, call->span);
    out.bindings.push_back(std::move(storage));
    out.bindings.push_back(std::move(rebound));
    changed = true;
  }
  if (!changed) return fn;
  return makeFunction(fn->params, relax_bindings::rebuild(out), fn->retType, fn->attrs, fn->span);
}

/// What LowerAllocTensor is: its entry in the registry and in docs/passes.md.
const PassRegistration& lowerAllocTensorDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "LowerAllocTensor";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Lowering};
    r.info.description =
        "Every R.builtin.alloc_tensor left after memory planning gets its own uint8 R.memory.alloc_storage and an "
        "R.memory.alloc_tensor at offset 0.";
    r.info.guarantees = "No R.builtin.alloc_tensor remains in Relax functions outside skipped ones.";
    r.create = [](const AttrDict&) { return createLowerAllocTensorPass(); };
        return r;
  }();
  return declaration;
}

const PassRegistrar kLowerAllocTensorRegistrar(lowerAllocTensorDeclaration);

class LowerAllocTensorPass final : public Pass {
 public:
  const PassInfo& info() const override { return lowerAllocTensorDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    relax_bindings::NameSupply names;  // one per run, as TVM's BlockBuilder has
    IRModule out = opt_util::mapFunctions(mod, ctx, info().name,
                                          [&](const Function& f, const std::string&) { return lowerFunction(f, names); });
    return out == mod ? mod : inferTypes(out);
  }
};

}  // namespace

PassPtr createLowerAllocTensorPass() { return std::make_shared<LowerAllocTensorPass>(); }

}  // namespace passlab
