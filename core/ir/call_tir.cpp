// call_tir_inplace as a call_tir with inplace_indices (see call_tir.h).
#include "core/ir/call_tir.h"

#include "core/ir/op.h"

namespace passlab {

bool isInplaceCallTir(const CallNode& call) {
  const OpDef* op = call.op();
  const AttrValue* v = call.attrs.find(kInplaceIndicesAttr);
  return op && op->id == OpId::CallTir && v && !v->isNone();
}

std::vector<int64_t> inplaceIndices(const CallNode& call) {
  std::vector<int64_t> out;
  if (!isInplaceCallTir(call)) return out;
  for (const AttrValue& v : call.attrs.find(kInplaceIndicesAttr)->asArray())
    out.push_back(v.kind() == AttrValue::Kind::Int ? v.asInt() : -1);
  return out;
}

}  // namespace passlab
