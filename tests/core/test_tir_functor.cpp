// The TIR functor (core/ir/tir_functor.h): the children of every node kind in
// their documented order, the iterative pre-order walk and its pruning, and
// the mutator's sharing of everything a rewrite does not touch.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/ir/float_math.h"
#include "core/ir/tir_functor.h"

using namespace passlab;
namespace T = passlab::tir;

namespace {

T::PrimExpr i32(int64_t v) { return T::intImm(DTypeCode::Int32, v); }
T::PrimExpr f32(double v) { return T::floatImm(DTypeCode::Float32, v); }

/// A block with every part present: two iteration variables, a predicate,
/// read and write regions, an init and a body.
struct BlockFixture {
  T::Buffer a = T::makeBuffer("A", DTypeCode::Float32, {4, 4});
  T::Buffer c = T::makeBuffer("C", DTypeCode::Float32, {4});
  T::Var i = T::makeVar("i"), k = T::makeVar("k"), vi = T::makeVar("vi"), vk = T::makeVar("vk");
  T::PrimExpr pred = T::binary(T::BinaryOp::LT, vi, i32(3));
  T::Stmt init = T::store(c, {vi}, f32(0));
  T::Stmt body = T::store(c, {vi}, T::binary(T::BinaryOp::Add, T::load(c, {vi}), T::load(a, {vi, vk})));
  T::Stmt block = T::block("C",
                           {{vi, i32(0), i32(4), T::IterKind::Spatial, i}, {vk, i32(0), i32(4), T::IterKind::Reduce, k}},
                           pred, {{a, {{vi, i32(1)}, {vk, i32(1)}}}}, {{c, {{vi, i32(1)}}}}, {}, init, body);
};

/// Records what preOrderVisit (or a visitor) reaches, statements as their
/// kind's number and expressions as "e<kind>".
std::vector<std::string> preOrder(const T::Stmt& s) {
  std::vector<std::string> seen;
  T::preOrderVisit(
      s,
      [&](const T::Stmt& t) {
        seen.push_back("s" + std::to_string(static_cast<int>(t->kind)));
        return true;
      },
      [&](const T::PrimExpr& e) {
        seen.push_back("e" + std::to_string(static_cast<int>(e->kind)));
        return true;
      });
  return seen;
}

class RecordingVisitor final : public T::StmtExprVisitor {
 public:
  std::vector<std::string> seen;
  void visit(const T::PrimExpr& e) override {
    if (!e) return;
    seen.push_back("e" + std::to_string(static_cast<int>(e->kind)));
    visitChildren(e);
  }
  void visit(const T::Stmt& s) override {
    if (!s) return;
    seen.push_back("s" + std::to_string(static_cast<int>(s->kind)));
    visitChildren(s);
  }
};

/// Replaces float literals 0.0 by 1.0; everything else is left alone.
class ZeroToOne final : public T::StmtExprMutator {
 public:
  using T::StmtExprMutator::mutate;
  T::PrimExpr mutate(const T::PrimExpr& e) override {
    if (const auto* f = T::as<T::FloatImmNode>(e); f && f->value == 0.0) return f32(1.0);
    return StmtExprMutator::mutate(e);
  }
};

}  // namespace

TEST_CASE("TIR functor: a block's children come in the documented order", "[tir_functor]") {
  BlockFixture f;
  std::vector<const void*> children;
  T::forEachChild(
      f.block, [&](const T::Stmt& s) { children.push_back(s.get()); }, [&](const T::PrimExpr& e) { children.push_back(e.get()); });
  const auto& b = static_cast<const T::BlockNode&>(*f.block);
  std::vector<const void*> expected;
  for (const T::BlockIterVar& iv : b.iterVars) {
    expected.push_back(iv.min.get());
    expected.push_back(iv.extent.get());
    expected.push_back(iv.binding.get());
  }
  expected.push_back(b.predicate.get());
  for (const auto* regions : {&b.reads, &b.writes})
    for (const T::BufferRegion& r : *regions)
      for (const auto& [mn, ext] : r.ranges) {
        expected.push_back(mn.get());
        expected.push_back(ext.get());
      }
  expected.push_back(b.init.get());
  expected.push_back(b.body.get());
  CHECK(children == expected);
}

TEST_CASE("TIR functor: absent parts are skipped, operands come in evaluation order", "[tir_functor]") {
  T::PrimExpr x = i32(1), y = i32(2), z = i32(3);
  T::Stmt then = T::evaluate(T::call(DTypeCode::Int32, "f", {x}));
  std::vector<const void*> seen;
  auto note = [&](const auto& n) { seen.push_back(n.get()); };
  T::forEachChild(T::ifThenElse(x, then), note, note);
  CHECK(seen == std::vector<const void*>{x.get(), then.get()});  // no else
  seen.clear();
  T::forEachChild(T::select(x, y, z), note);
  CHECK(seen == std::vector<const void*>{x.get(), y.get(), z.get()});
  seen.clear();
  T::forEachChild(x, note);  // a literal has no operands
  CHECK(seen.empty());
}

TEST_CASE("TIR functor: preOrderVisit walks what the recursive visitor walks, in the same order", "[tir_functor]") {
  BlockFixture f;
  T::Var j = T::makeVar("j");
  T::Stmt nest = T::seq({T::forLoop(f.i, i32(0), i32(4), T::ForKind::Serial,
                                    T::forLoop(f.k, i32(0), i32(4), T::ForKind::Serial, f.block)),
                         T::letStmt(j, T::cast(DTypeCode::Int64, i32(2)), T::evaluate(T::call(DTypeCode::Int32, "g", {j})))});
  RecordingVisitor v;
  v.visit(nest);
  std::vector<std::string> walked = preOrder(nest);
  CHECK(walked == v.seen);
  CHECK(walked.front() == "s" + std::to_string(static_cast<int>(T::StmtKind::Seq)));
  CHECK(walked.size() > 30);
}

TEST_CASE("TIR functor: a callback returning false prunes that subtree only", "[tir_functor]") {
  BlockFixture f;
  T::Stmt loop = T::forLoop(f.i, i32(0), i32(4), T::ForKind::Serial, f.block);
  int stores = 0, blocks = 0, exprs = 0;
  T::preOrderVisit(
      loop,
      [&](const T::Stmt& s) {
        stores += s->kind == T::StmtKind::Store;
        blocks += s->kind == T::StmtKind::Block;
        return s->kind != T::StmtKind::Block;  // do not enter the block
      },
      [&](const T::PrimExpr&) {
        ++exprs;
        return true;
      });
  CHECK(blocks == 1);
  CHECK(stores == 0);
  CHECK(exprs == 2);  // the loop's min and extent
}

TEST_CASE("TIR functor: the mutator returns its argument when nothing changes", "[tir_functor]") {
  BlockFixture f;
  T::Stmt loop = T::forLoop(f.i, i32(0), i32(4), T::ForKind::Serial, f.block);
  T::StmtExprMutator identity;
  CHECK(identity.mutate(loop) == loop);
  CHECK(identity.mutate(T::Stmt()) == nullptr);
}

TEST_CASE("TIR functor: a rewrite rebuilds the path to the change and shares the rest", "[tir_functor]") {
  BlockFixture f;
  T::Stmt loop = T::forLoop(f.i, i32(0), i32(4), T::ForKind::Serial, f.block);
  T::Stmt out = ZeroToOne().mutate(loop);
  REQUIRE(out != loop);
  const auto* newLoop = T::as<T::ForNode>(out);
  REQUIRE(newLoop);
  CHECK(newLoop->min == static_cast<const T::ForNode&>(*loop).min);
  const auto* newBlock = T::as<T::BlockNode>(newLoop->body);
  REQUIRE(newBlock);
  CHECK(newBlock != f.block.get());
  CHECK(newBlock->body == f.body);        // no 0.0 in the body: shared
  CHECK(newBlock->predicate == f.pred);   // nor in the predicate
  CHECK(newBlock->init != f.init);        // the init stored 0.0
  const auto* newInit = T::as<T::StoreNode>(newBlock->init);
  REQUIRE(newInit);
  CHECK(T::as<T::FloatImmNode>(newInit->value)->value == 1.0);
  CHECK(newInit->indices[0] == static_cast<const T::StoreNode&>(*f.init).indices[0]);
}

TEST_CASE("TIR functor: substitute replaces a variable everywhere and shares what does not mention it", "[tir_functor]") {
  BlockFixture f;
  T::PrimExpr five = i32(5);
  T::Stmt out = T::substitute(f.block, {{f.i.get(), five}});
  const auto& b = static_cast<const T::BlockNode&>(*out);
  CHECK(b.iterVars[0].binding == five);
  CHECK(b.iterVars[1].binding == f.k);
  CHECK(b.body == f.body);
  CHECK(T::substitute(f.body, {}) == f.body);
}

TEST_CASE("Float intrinsics: every unary intrinsic has a reference value, pow is binary", "[tir_functor][float_math]") {
  for (const char* name : {"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "tanh", "sigmoid", "erf", "fabs", "abs", "round",
                           "nearbyint", "floor", "ceil", "trunc", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
                           "asinh", "acosh", "atanh"}) {
    INFO(name);
    CHECK(floatMathFunction(name) != nullptr);
  }
  CHECK(floatMathFunction("pow") == nullptr);
  CHECK(floatMathFunction("exp10") == nullptr);
  CHECK(floatMathFunction("sigmoid")(0.0) == 0.5);
  CHECK(floatMathFunction("rsqrt")(4.0) == 0.5);
  CHECK(floatMathFunction("round")(2.5) == 2.0);  // to nearest even, as nearbyint
}
