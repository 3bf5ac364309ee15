// Flattening and rebuilding of Relax function bodies (see relax_bindings.h).
#include "passes/relax_bindings.h"

namespace passlab::relax_bindings {

FlatBody flatten(const Expr& body) {
  FlatBody out;
  Expr e = body;
  int block = 0;
  bool inLets = false;
  while (true) {
    if (const auto* let = as<LetNode>(e)) {
      if (!inLets) {
        ++block;
        inLets = true;
      }
      out.bindings.push_back({let->var, let->value, false, block, let->span});
      e = let->body;
      continue;
    }
    if (const auto* df = as<DataflowNode>(e)) {
      ++block;
      inLets = false;
      for (const Binding& b : df->bindings) out.bindings.push_back({b.var, b.value, true, block, df->span});
      e = df->body;
      continue;
    }
    break;
  }
  out.result = e;
  return out;
}

Expr rebuild(const FlatBody& flat) {
  Expr result = flat.result;
  const auto& bs = flat.bindings;
  for (size_t i = bs.size(); i-- > 0;) {
    if (!bs[i].dataflow) {
      result = makeLet(bs[i].var, bs[i].value, result, bs[i].span);
      continue;
    }
    size_t first = i;
    while (first > 0 && bs[first - 1].dataflow && bs[first - 1].block == bs[i].block) --first;
    std::vector<Binding> block;
    for (size_t j = first; j <= i; ++j) block.push_back({bs[j].var, bs[j].value});
    result = makeDataflow(std::move(block), result, bs[i].span);
    i = first;
  }
  return result;
}

FlatBinding bindingLike(const FlatBinding& where, const std::string& name, Type type, Expr value) {
  FlatBinding b;
  b.var = makeVar(name, std::move(type), where.dataflow);
  b.value = std::move(value);
  b.dataflow = where.dataflow;
  b.block = where.block;
  b.span = where.span;
  return b;
}

std::string NameSupply::fresh(const std::string& hint) {
  auto it = counters_.find(hint);
  if (it == counters_.end()) {
    counters_.emplace(hint, 0);
    return hint;
  }
  // A reference, unlike the iterator, stays valid while the map grows.
  int& counter = it->second;
  std::string name = hint;
  while (!counters_.emplace(name, 0).second) name = hint + std::to_string(++counter);
  return name;
}

FlatBinding bindingLike(const FlatBinding& where, NameSupply& names, const std::string& name, Type type, Expr value) {
  return bindingLike(where, names.fresh(name), std::move(type), std::move(value));
}

std::vector<int64_t> intListOf(const AttrValue& v) {
  std::vector<int64_t> out;
  if (v.kind() != AttrValue::Kind::Array) return out;
  for (const AttrValue& x : v.asArray()) out.push_back(x.asInt());
  return out;
}

}  // namespace passlab::relax_bindings
