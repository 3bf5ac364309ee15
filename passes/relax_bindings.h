// A Relax function body as TVM's SeqExpr sees it: a flat list of bindings in
// blocks, then the result. passlab nests bindings (Let chains and Dataflow
// nodes); the VM-lowering passes (CallTIRRewrite, StaticPlanBlockMemory,
// LowerAllocTensor, KillAfterLastUse, LowerRuntimeBuiltin) rewrite the list
// and rebuild the nesting, so each of them is a loop over bindings as in TVM.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/expr.h"
#include "core/ir/module.h"

namespace passlab::relax_bindings {

/// One binding of the function's top-level chain.
struct FlatBinding {
  Var var;
  Expr value;
  /// Inside a dataflow block.
  bool dataflow = false;
  /// The block it belongs to: consecutive let bindings share one, each
  /// dataflow block has its own (TVM's BindingBlock / DataflowBlock).
  int block = 0;
  Span span;
};

/// The body of one function, flattened.
struct FlatBody {
  std::vector<FlatBinding> bindings;
  /// What the body returns (the Let chain's final expression).
  Expr result;
};

/// Flattens `body`: the Let chain and Dataflow nodes at its top, in order.
/// Values (If branches, nested functions) are not entered.
FlatBody flatten(const Expr& body);

/// Rebuilds nested Let / Dataflow nodes from `flat` (the inverse of flatten:
/// consecutive bindings of one dataflow block become one Dataflow node).
/// New bindings are typed where that is direct (op calls on typed arguments,
/// and with `primFuncs` calls to its PrimFuncs), and a rebuilt node whose
/// parts are typed is typed, so inferTypes after the pass types only the rest.
/// `primFuncs` must hold the PrimFuncs the body calls as the pass leaves them.
Expr rebuild(const FlatBody& flat, const IRModule* primFuncs = nullptr);

/// The PrimFunc a pass's output module will hold under a name (null if none).
using PrimFuncLookup = std::function<const PrimFuncNode*(const std::string&)>;

/// Types `e`, a node a pass made, as inferTypes would where that is direct and
/// its parts are typed: an op call (its PrimFunc arguments through `primFuncs`),
/// a call to a PrimFunc of `primFuncs`, a tuple, or a Let / Dataflow whose bindings check exactly. For passes
/// that rewrite with an ExprMutator: typing each rebuilt node keeps the typer
/// after the pass from walking the whole function. Otherwise `e` is left as is.
void typeIfDirect(const Expr& e, const PrimFuncLookup& primFuncs = {});

/// TVM's NameSupply as a pass's BlockBuilder uses it (one per pass run, so
/// across all functions): a name hint's first use is the hint itself, later
/// ones the hint with 1, 2, ... appended, skipping names already given
/// (`alloc`, `alloc1`, `_`, `_1`). The printer then has no clash to
/// resolve, so passlab prints the names TVM's passes give.
class NameSupply {
 public:
  /// A name not given before.
  std::string fresh(const std::string& hint);

 private:
  std::unordered_map<std::string, int> counters_;
};

/// A binding for a new variable named `name` of type `type` (the annotation)
/// inside the block of `where`.
FlatBinding bindingLike(const FlatBinding& where, const std::string& name, Type type, Expr value);
/// The same, named by `names` from the hint `name`.
FlatBinding bindingLike(const FlatBinding& where, NameSupply& names, const std::string& name, Type type, Expr value);

/// The integers of an int-array attribute (a shape).
std::vector<int64_t> intListOf(const AttrValue& v);

}  // namespace passlab::relax_bindings
