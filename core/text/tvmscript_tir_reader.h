// The TIR reader of TVMScript (internal to core/text): one `@T.prim_func`
// body, statements in tvmscript_tir_parse.cpp and expressions in
// tvmscript_tir_expr.cpp, over the shared ScriptParser cursor.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/text/tvmscript_tir.h"

namespace passlab::tvmscript {

/// Reads one PrimFunc. Names resolve through a stack of Python-like scopes
/// (a loop, block or let opens one); buffers and scalar variables share them.
class TirReader {
 public:
  explicit TirReader(ScriptParser& p) : p_(p) {}
  PrimFunc function(const PrimFuncDecorator& decorator, std::string* name);

  // ---- expressions (tvmscript_tir_expr.cpp) ----
  /// A full expression (`or` is the loosest operator).
  tir::PrimExpr expr();
  /// A literal or expression of TIR dtype `d` converted (literals retyped, others cast).
  static tir::PrimExpr convertTo(const tir::PrimExpr& e, DataType d);
  /// The `T.<dtype>` named `name` ("float32", "int64", "bool"), if any.
  static std::optional<DataType> scriptDType(std::string_view name);
  /// A dtype written as a string literal ("float32") or `T.float32`.
  DataType dtypeArg(std::string_view what);
  /// `(16, 16)`, `[16]` or `16`: a static shape.
  std::vector<int64_t> shapeArg();
  /// Reads `T.` (the TIR alias and a dot) when present.
  bool acceptT();
  /// True when the tokens at the cursor are `T.<name>`.
  bool checkT(std::string_view name, size_t k = 0) const;
  /// A `[...]` subscript after a buffer: indices, or ranges when `regions`.
  std::vector<std::pair<tir::PrimExpr, tir::PrimExpr>> subscript(bool regions);
  /// The extent of [mn, end): folded for literals, and `x` for an end written `mn + x` (as the printer writes it).
  static tir::PrimExpr extentOf(const tir::PrimExpr& mn, const tir::PrimExpr& end);
  /// A buffer region `A[i, 0:16]`.
  tir::BufferRegion region();
  /// "; did you mean ...?" for an unknown `T.<name>`: the other TVM version's
  /// spelling, or a known name within two edits ("" when none).
  static std::string scriptNameHint(std::string_view name);

  // ---- names ----
  struct Symbol {
    tir::Var var;
    tir::Buffer buffer;
    /// For a buffer parameter: its data variable (`A.data`).
    tir::Var data;
    /// A variable declared `x = T.int32()`, which only a T.Let may bind.
    bool letOnly = false;
  };
  const Symbol* lookup(std::string_view name) const;
  void define(const PyToken& at, const std::string& name, Symbol s);
  void pushScope() { scopes_.emplace_back(); }
  void popScope() { scopes_.pop_back(); }

 private:
  // ---- statements (tvmscript_tir_parse.cpp) ----
  /// Statements up to the Dedent closing the current suite (consumed).
  tir::Stmt suite();
  /// One statement; `rest` reads the remainder of the suite for statements
  /// whose body it is (a concise let or buffer declaration).
  tir::Stmt statement(bool* tookRest);
  tir::Stmt forStatement();
  tir::Stmt withStatement(bool* tookRest);
  tir::Stmt blockStatement(const PyToken& at, bool main);
  tir::Stmt ifStatement();
  tir::Stmt assignment(bool* tookRest);
  AttrDict attrDict();
  AttrValue attrValue(const std::string& key);

  // ---- asserts and let expressions (tvmscript_tir_bind.cpp) ----
  /// `assert cond, "message"` or main's `assert cond, ("Kind", ["part", ...])`:
  /// the rest of the suite is what it guards (TVM's parser does the same).
  tir::Stmt assertStatement(bool* tookRest);
  /// `with T.Assert(cond, message[, error_kind="Kind"]):`, cursor after `T.Assert`.
  tir::Stmt withAssert(const PyToken& at);
  /// The `cond` of an assert, which must be bool.
  tir::PrimExpr assertCondition();
  /// `x = T.int32()` (cursor at `T`): declares `x` for a T.Let to bind.
  void declareLetVar(const PyToken& name);
  /// `T.Let(body, where={x: value})` or `T.let(x, value, body)`, cursor after the name.
  tir::PrimExpr letExpr(const PyToken& at, const std::string& name);
  /// Fails at the first use of a declared variable outside a T.Let binding it
  /// (passlab's TIR has no free symbolic variables).
  void checkLetVarUses() const;

  // ---- expression internals ----
  tir::PrimExpr orExpr();
  tir::PrimExpr andExpr();
  tir::PrimExpr notExpr();
  tir::PrimExpr comparison();
  tir::PrimExpr arith();
  tir::PrimExpr term();
  tir::PrimExpr factor();
  tir::PrimExpr power();
  tir::PrimExpr primary();
  tir::PrimExpr tCall(const PyToken& at, const std::string& name);
  std::vector<tir::PrimExpr> callArgs();
  tir::PrimExpr literal(const PyToken& t, bool negative);

  /// The state of a `with T.block(...)` being read.
  struct BlockState {
    std::vector<tir::BlockIterVar> iterVars;
    tir::PrimExpr predicate;
    std::vector<tir::BufferRegion> reads, writes;
    bool haveReads = false, haveWrites = false;
    std::vector<tir::Buffer> allocs;
    tir::Stmt init;
    AttrDict annotations;
  };

  ScriptParser& p_;
  std::vector<std::unordered_map<std::string, Symbol>> scopes_;
  /// Enclosing loops (variable -> min, extent) for T.axis.remap.
  std::unordered_map<const tir::VarNode*, std::pair<tir::PrimExpr, tir::PrimExpr>> loops_;
  /// The innermost block being read (null at function level), and whether the
  /// current statement is directly inside it (not in a nested loop or if).
  BlockState* block_ = nullptr;
  bool atBlockTop_ = false;
  /// Function level: T.func_attr, T.match_buffer and root T.alloc_buffer go here.
  bool atFunctionTop_ = false;
  std::vector<tir::Buffer> rootAllocs_;
  AttrDict attrs_;
  std::vector<tir::Param> params_;
  std::unordered_map<std::string, size_t> handleParams_;
  /// Uses of `x = T.int32()` variables read so far and not yet bound by a T.Let.
  std::vector<std::pair<const tir::VarNode*, PyToken>> letVarUses_;
  /// Declared variables some T.Let has bound (a second binding gets a fresh variable).
  std::unordered_map<const tir::VarNode*, int> letBindings_;
};

}  // namespace passlab::tvmscript
