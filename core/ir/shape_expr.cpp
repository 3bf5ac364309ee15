#include "core/ir/shape_expr.h"

#include <algorithm>
#include <functional>

namespace passlab::shape {

using tir::BinaryNode;
using tir::BinaryOp;
using tir::IntImmNode;
using tir::PrimExpr;
using tir::VarNode;

namespace {
const DataType kI64{DTypeCode::Int64};

/// A sum of products: monomial key (the sorted keys of its factors) ->
/// coefficient and the factor expressions. The constant term has the empty key.
struct Poly {
  struct Term {
    int64_t coef = 0;
    std::vector<PrimExpr> factors;
  };
  std::map<std::vector<std::string>, Term> terms;

  void addTerm(const std::vector<std::string>& key, int64_t coef, const std::vector<PrimExpr>& factors) {
    Term& t = terms[key];
    if (t.factors.empty()) t.factors = factors;
    t.coef += coef;
    if (t.coef == 0) terms.erase(key);
  }
  std::optional<int64_t> constant() const {
    if (terms.empty()) return 0;
    if (terms.size() == 1 && terms.begin()->first.empty()) return terms.begin()->second.coef;
    return std::nullopt;
  }
};

using KeyFn = std::function<std::string(const VarNode*)>;

int64_t floorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t floorModInt(int64_t a, int64_t b) { return a - floorDivInt(a, b) * b; }

Poly toPoly(const PrimExpr& e, const KeyFn& key);
PrimExpr fromPoly(const Poly& p);

/// An expression that is not a sum of products: its children simplified,
/// constants folded, kept whole as one factor.
PrimExpr simplifyAtom(const PrimExpr& e, const KeyFn& key, std::optional<int64_t>* folded) {
  *folded = std::nullopt;
  const auto* b = tir::as<BinaryNode>(e);
  if (!b) return e;
  Poly pa = toPoly(b->a, key), pb = toPoly(b->b, key);
  std::optional<int64_t> ca = pa.constant(), cb = pb.constant();
  PrimExpr sa = fromPoly(pa), sb = fromPoly(pb);
  switch (b->op) {
    case BinaryOp::FloorDiv:
    case BinaryOp::Div:
      if (cb && *cb == 1) return sa;
      if (pb.terms.size() == 1 && pb.terms.begin()->second.coef > 0 && !ca) {
        // Division by one positive monomial that divides every term exactly:
        // (n * 8 + 16) // 8 is n + 2, n * 8 // n is 8.
        const auto& [kb, tb] = *pb.terms.begin();
        Poly q;
        bool exact = true;
        for (const auto& [k, t] : pa.terms) {
          if (t.coef % tb.coef != 0) exact = false;
          std::vector<std::string> rest;
          std::vector<PrimExpr> restFactors;
          std::vector<bool> used(kb.size(), false);
          for (size_t i = 0; i < k.size(); ++i) {
            bool matched = false;
            for (size_t j = 0; j < kb.size() && !matched; ++j)
              if (!used[j] && kb[j] == k[i]) used[j] = matched = true;
            if (!matched) {
              rest.push_back(k[i]);
              restFactors.push_back(t.factors[i]);
            }
          }
          for (bool u : used) exact = exact && u;
          if (!exact) break;
          q.addTerm(rest, t.coef / tb.coef, restFactors);
        }
        if (exact) return fromPoly(q);
      }
      if (ca && cb && *cb != 0) *folded = b->op == BinaryOp::Div ? *ca / *cb : floorDivInt(*ca, *cb);
      break;
    case BinaryOp::FloorMod:
    case BinaryOp::Mod:
      if (cb && *cb == 1) *folded = 0;
      else if (ca && cb && *cb != 0) *folded = b->op == BinaryOp::Mod ? *ca % *cb : floorModInt(*ca, *cb);
      break;
    case BinaryOp::Min:
      if (ca && cb) *folded = std::min(*ca, *cb);
      break;
    case BinaryOp::Max:
      if (ca && cb) *folded = std::max(*ca, *cb);
      break;
    default: break;
  }
  if (*folded) return constant(**folded);
  if (sa == b->a && sb == b->b) return e;
  return tir::binary(b->op, sa, sb);
}

Poly toPoly(const PrimExpr& e, const KeyFn& key) {
  Poly p;
  if (const auto* i = tir::as<IntImmNode>(e)) {
    p.addTerm({}, i->value, {});
    return p;
  }
  if (const auto* v = tir::as<VarNode>(e)) {
    p.addTerm({key(v)}, 1, {e});
    return p;
  }
  if (const auto* b = tir::as<BinaryNode>(e)) {
    if (b->op == BinaryOp::Add || b->op == BinaryOp::Sub) {
      p = toPoly(b->a, key);
      Poly q = toPoly(b->b, key);
      int64_t sign = b->op == BinaryOp::Add ? 1 : -1;
      for (const auto& [k, t] : q.terms) p.addTerm(k, sign * t.coef, t.factors);
      return p;
    }
    if (b->op == BinaryOp::Mul) {
      Poly x = toPoly(b->a, key), y = toPoly(b->b, key);
      for (const auto& [kx, tx] : x.terms)
        for (const auto& [ky, ty] : y.terms) {
          // Merge the two sorted factor lists, keeping the factors in key order.
          std::vector<std::pair<std::string, PrimExpr>> fs;
          for (size_t i = 0; i < kx.size(); ++i) fs.emplace_back(kx[i], tx.factors[i]);
          for (size_t i = 0; i < ky.size(); ++i) fs.emplace_back(ky[i], ty.factors[i]);
          std::stable_sort(fs.begin(), fs.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
          std::vector<std::string> k;
          std::vector<PrimExpr> f;
          for (auto& [s, x2] : fs) {
            k.push_back(s);
            f.push_back(x2);
          }
          p.addTerm(k, tx.coef * ty.coef, f);
        }
      return p;
    }
  }
  std::optional<int64_t> folded;
  PrimExpr atom = simplifyAtom(e, key, &folded);
  if (folded) {
    p.addTerm({}, *folded, {});
    return p;
  }
  if (const auto* ab = tir::as<BinaryNode>(atom); tir::as<IntImmNode>(atom) || tir::as<VarNode>(atom) ||
                                                  (ab && (ab->op == BinaryOp::Add || ab->op == BinaryOp::Sub || ab->op == BinaryOp::Mul)))
    return toPoly(atom, key);  // the atom simplified to a sum of products
  std::string k = "(" + toScript(atom) + ")";
  p.addTerm({k}, 1, {atom});
  return p;
}

PrimExpr termExpr(const Poly::Term& t, int64_t coef) {
  PrimExpr out;
  for (const PrimExpr& f : t.factors) out = out ? tir::binary(BinaryOp::Mul, out, f) : f;
  if (!out) return constant(coef);
  if (coef != 1) out = tir::binary(BinaryOp::Mul, out, constant(coef));
  return out;
}

PrimExpr fromPoly(const Poly& p) {
  if (auto c = p.constant()) return constant(*c);
  PrimExpr out;
  // Positive terms (sorted by their variables), then the constant, then what is subtracted.
  for (const auto& [k, t] : p.terms)
    if (!k.empty() && t.coef > 0) out = out ? tir::binary(BinaryOp::Add, out, termExpr(t, t.coef)) : termExpr(t, t.coef);
  auto c = p.terms.find({});
  if (c != p.terms.end()) {
    int64_t v = c->second.coef;
    if (!out) out = constant(v);
    else out = tir::binary(v > 0 ? BinaryOp::Add : BinaryOp::Sub, out, constant(v > 0 ? v : -v));
  }
  for (const auto& [k, t] : p.terms)
    if (!k.empty() && t.coef < 0) {
      if (out) out = tir::binary(BinaryOp::Sub, out, termExpr(t, -t.coef));
      else out = termExpr(t, t.coef);
    }
  return out;
}

std::string nameKey(const VarNode* v) { return v->name; }

int precedence(const PrimExpr& e) {
  const auto* b = tir::as<BinaryNode>(e);
  if (!b) return 3;
  switch (b->op) {
    case BinaryOp::Add:
    case BinaryOp::Sub: return 1;
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::FloorDiv:
    case BinaryOp::Mod:
    case BinaryOp::FloorMod: return 2;
    default: return 3;
  }
}
}  // namespace

Dim constant(int64_t value) { return tir::intImm(kI64, value); }
tir::Var makeShapeVar(std::string name) { return tir::makeVar(std::move(name), kI64); }

std::optional<int64_t> asConstant(const Dim& d) {
  if (!d) return std::nullopt;
  if (const auto* i = tir::as<IntImmNode>(d)) return i->value;
  return toPoly(d, nameKey).constant();
}

std::vector<Dim> dimsOf(const TensorTypeNode& t) {
  std::vector<Dim> out;
  out.reserve(t.shape.size());
  for (size_t i = 0; i < t.shape.size(); ++i) out.push_back(dimOf(t, i));
  return out;
}

Dim dimOf(const TensorTypeNode& t, size_t i) {
  if (t.shape[i] != kDynamicDim) return constant(t.shape[i]);
  return t.symbolicDim(i);
}

Type tensorOfDims(const std::vector<Dim>& dims, DataType dtype) {
  std::vector<int64_t> shape;
  std::vector<tir::PrimExpr> sym;
  for (const Dim& d : dims) {
    const auto* i = tir::as<IntImmNode>(d);
    shape.push_back(i ? i->value : kDynamicDim);
    sym.push_back(i ? nullptr : d);
  }
  return tensorType(std::move(shape), dtype, std::move(sym));
}

Type withDType(const TensorTypeNode& t, DataType dtype) { return tensorType(t.shape, dtype, t.symbolic); }

Dim simplify(const Dim& d) {
  if (!d || tir::as<IntImmNode>(d) || tir::as<VarNode>(d)) return d;
  return fromPoly(toPoly(d, nameKey));
}

Dim add(const Dim& a, const Dim& b) { return a && b ? simplify(tir::binary(BinaryOp::Add, a, b)) : nullptr; }
Dim sub(const Dim& a, const Dim& b) { return a && b ? simplify(tir::binary(BinaryOp::Sub, a, b)) : nullptr; }
Dim mul(const Dim& a, const Dim& b) { return a && b ? simplify(tir::binary(BinaryOp::Mul, a, b)) : nullptr; }
Dim floorDiv(const Dim& a, const Dim& b) {
  if (!a || !b) return nullptr;
  if (auto cb = asConstant(b); cb && *cb == 0) return nullptr;
  return simplify(tir::binary(BinaryOp::FloorDiv, a, b));
}

bool equal(const Dim& a, const Dim& b, VarMap* map) {
  if (!a || !b) return !a && !b;
  if (a == b) return true;
  const auto* va = tir::as<VarNode>(a);
  const auto* vb = tir::as<VarNode>(b);
  if (map && va && vb) {
    auto it = map->find(vb);
    if (it != map->end()) return it->second == va;
    for (const auto& [from, to] : *map)
      if (to == va) return false;  // a's variable is already bound to another one of b's
    (*map)[vb] = va;
    return true;
  }
  KeyFn keyB = nameKey;
  if (map) {
    keyB = [map](const VarNode* v) {
      auto it = map->find(v);
      return it != map->end() ? it->second->name : "\x01unbound " + v->name;
    };
  }
  Poly pa = toPoly(a, nameKey), pb = toPoly(b, keyB);
  if (pa.terms.size() != pb.terms.size()) return false;
  for (auto ia = pa.terms.begin(), ib = pb.terms.begin(); ia != pa.terms.end(); ++ia, ++ib)
    if (ia->first != ib->first || ia->second.coef != ib->second.coef) return false;
  return true;
}

bool equalShapes(const TensorTypeNode& a, const TensorTypeNode& b, VarMap* map) {
  if (a.shape.size() != b.shape.size()) return false;
  for (size_t i = 0; i < a.shape.size(); ++i) {
    if (a.shape[i] != kDynamicDim || b.shape[i] != kDynamicDim) {
      if (a.shape[i] != b.shape[i]) return false;
      continue;
    }
    if (!equal(a.symbolicDim(i), b.symbolicDim(i), map)) return false;
  }
  return true;
}

bool typesEqual(const Type& a, const Type& b, VarMap& map) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  if (const auto* x = as<TensorTypeNode>(a)) {
    const auto* y = as<TensorTypeNode>(b);
    return x->unknownDtype == y->unknownDtype && x->unknownRank == y->unknownRank && x->vdevice == y->vdevice &&
           (x->unknownDtype || x->dtype == y->dtype) && x->shape == y->shape && equalShapes(*x, *y, &map);
  }
  if (const auto* x = as<ShapeTypeNode>(a)) {
    const auto* y = as<ShapeTypeNode>(b);
    if (x->ndim != y->ndim || x->values != y->values || x->symbolic.size() != y->symbolic.size()) return false;
    for (size_t i = 0; i < x->symbolic.size(); ++i)
      if (!equal(x->symbolic[i], y->symbolic[i], &map)) return false;
    return true;
  }
  if (const auto* x = as<PrimTypeNode>(a)) {
    const auto* y = as<PrimTypeNode>(b);
    return x->dtype == y->dtype && x->value == y->value && !x->symbolic == !y->symbolic &&
           (!x->symbolic || equal(x->symbolic, y->symbolic, &map));
  }
  if (const auto* x = as<TupleTypeNode>(a)) {
    const auto* y = as<TupleTypeNode>(b);
    if (x->fields.size() != y->fields.size()) return false;
    for (size_t i = 0; i < x->fields.size(); ++i)
      if (!typesEqual(x->fields[i], y->fields[i], map)) return false;
    return true;
  }
  if (const auto* x = as<FuncTypeNode>(a)) {
    const auto* y = as<FuncTypeNode>(b);
    if (x->params.size() != y->params.size()) return false;
    for (size_t i = 0; i < x->params.size(); ++i)
      if (!typesEqual(x->params[i], y->params[i], map)) return false;
    return typesEqual(x->ret, y->ret, map);
  }
  return typeEqual(a, b);
}

std::string toScript(const Dim& d) {
  if (!d) return "?";
  if (const auto* i = tir::as<IntImmNode>(d)) return std::to_string(i->value);
  if (const auto* v = tir::as<VarNode>(d)) return v->name;
  if (const auto* c = tir::as<tir::CastNode>(d)) return "T.Cast(\"" + std::string(c->dtype.name()) + "\", " + toScript(c->value) + ")";
  const auto* b = tir::as<BinaryNode>(d);
  if (!b) return "?";
  auto side = [&](const PrimExpr& x, bool right) {
    int px = precedence(x), pe = precedence(d);
    std::string s = toScript(x);
    // Python is left-associative: a - (b + c) and a // (b * c) need the parentheses.
    bool paren = px < pe || (right && px == pe && pe < 3) || (tir::as<IntImmNode>(x) && tir::as<IntImmNode>(x)->value < 0 && right);
    return paren ? "(" + s + ")" : s;
  };
  std::string_view op;
  switch (b->op) {
    case BinaryOp::Add: op = " + "; break;
    case BinaryOp::Sub: op = " - "; break;
    case BinaryOp::Mul: op = " * "; break;
    case BinaryOp::Div: op = " / "; break;
    case BinaryOp::FloorDiv: op = " // "; break;
    case BinaryOp::FloorMod: op = " % "; break;
    case BinaryOp::Min: return "T.min(" + toScript(b->a) + ", " + toScript(b->b) + ")";
    case BinaryOp::Max: return "T.max(" + toScript(b->a) + ", " + toScript(b->b) + ")";
    default: return "?";
  }
  // a + b + c prints flat: the left side of a same-precedence operator needs no parentheses.
  if (b->op == BinaryOp::Mul && precedence(b->b) == 2) return side(b->a, false) + std::string(op) + "(" + toScript(b->b) + ")";
  return side(b->a, false) + std::string(op) + side(b->b, true);
}

void collectVars(const Dim& d, std::vector<tir::Var>& out) {
  if (!d) return;
  if (tir::as<VarNode>(d)) {
    auto v = std::static_pointer_cast<const VarNode>(d);
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    return;
  }
  if (const auto* b = tir::as<BinaryNode>(d)) {
    collectVars(b->a, out);
    collectVars(b->b, out);
  } else if (const auto* c = tir::as<tir::CastNode>(d)) {
    collectVars(c->value, out);
  }
}

void collectTypeVars(const Type& t, std::vector<tir::Var>& out) {
  if (const auto* tt = as<TensorTypeNode>(t)) {
    for (const tir::PrimExpr& s : tt->symbolic) collectVars(s, out);
  } else if (const auto* sh = as<ShapeTypeNode>(t)) {
    for (const tir::PrimExpr& s : sh->symbolic) collectVars(s, out);
  } else if (const auto* pr = as<PrimTypeNode>(t)) {
    collectVars(pr->symbolic, out);
  } else if (const auto* tup = as<TupleTypeNode>(t)) {
    for (const Type& f : tup->fields) collectTypeVars(f, out);
  } else if (const auto* f = as<FuncTypeNode>(t)) {
    for (const Type& p : f->params) collectTypeVars(p, out);
    collectTypeVars(f->ret, out);
  }
}

std::optional<int64_t> evaluate(const Dim& d, const Env& env) {
  if (!d) return std::nullopt;
  if (const auto* i = tir::as<IntImmNode>(d)) return i->value;
  if (const auto* v = tir::as<VarNode>(d)) {
    auto it = env.find(v);
    if (it == env.end()) return std::nullopt;
    return it->second;
  }
  if (const auto* c = tir::as<tir::CastNode>(d)) return evaluate(c->value, env);
  const auto* b = tir::as<BinaryNode>(d);
  if (!b) return std::nullopt;
  auto x = evaluate(b->a, env), y = evaluate(b->b, env);
  if (!x || !y) return std::nullopt;
  switch (b->op) {
    case BinaryOp::Add: return *x + *y;
    case BinaryOp::Sub: return *x - *y;
    case BinaryOp::Mul: return *x * *y;
    case BinaryOp::Div: return *y ? std::optional<int64_t>(*x / *y) : std::nullopt;
    case BinaryOp::Mod: return *y ? std::optional<int64_t>(*x % *y) : std::nullopt;
    case BinaryOp::FloorDiv: return *y ? std::optional<int64_t>(floorDivInt(*x, *y)) : std::nullopt;
    case BinaryOp::FloorMod: return *y ? std::optional<int64_t>(floorModInt(*x, *y)) : std::nullopt;
    case BinaryOp::Min: return std::min(*x, *y);
    case BinaryOp::Max: return std::max(*x, *y);
    default: return std::nullopt;
  }
}

std::string bindShape(const TensorTypeNode& t, const std::vector<int64_t>& concrete, Env& env) {
  if (concrete.size() != t.shape.size())
    return "rank " + std::to_string(concrete.size()) + " was passed where rank " + std::to_string(t.shape.size()) + " is declared";
  // Bare variables bind first, so that `(n, n * 2)` checks its second dim against the n of the first.
  for (size_t i = 0; i < concrete.size(); ++i) {
    Dim d = t.symbolicDim(i);
    const auto* v = tir::as<VarNode>(d);
    if (v && !env.count(v)) env[v] = concrete[i];
  }
  for (size_t i = 0; i < concrete.size(); ++i) {
    if (t.shape[i] != kDynamicDim) {
      if (t.shape[i] != concrete[i])
        return "dimension " + std::to_string(i) + " is " + std::to_string(t.shape[i]) + ", but " + std::to_string(concrete[i]) + " was passed";
      continue;
    }
    Dim d = t.symbolicDim(i);
    if (!d) continue;
    std::optional<int64_t> want = evaluate(d, env);
    if (want && *want != concrete[i])
      return "dimension " + std::to_string(i) + " is " + toScript(d) + " = " + std::to_string(*want) + " here, but " +
             std::to_string(concrete[i]) + " was passed";
  }
  return "";
}

}  // namespace passlab::shape
