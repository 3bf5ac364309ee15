// Iterative release of expression trees. A node's destructor hands its
// children to a per-thread queue instead of dropping them in place, and the
// outermost destructor drains the queue; so freeing a 200k-deep chain uses a
// constant amount of C++ stack instead of one frame group per level.
#include <vector>

#include "core/ir/expr.h"

namespace passlab {

namespace {

/// Set when this thread's queue has been destroyed (thread or program exit):
/// nodes freed after that (statics) fall back to plain recursive release.
/// A bool has no destructor, so reading it then is still valid.
thread_local bool tQueueGone = false;

struct ReleaseQueue {
  std::vector<Expr> pending;
  bool draining = false;
  ~ReleaseQueue() { tQueueGone = true; }
};

thread_local ReleaseQueue tQueue;

/// Takes `handle` away from a dying node. When this was the last owner, the
/// child is queued so its own destructor runs from the drain loop, not nested.
template <class T>
void defer(std::shared_ptr<const T>& handle) {
  if (!handle) return;
  if (tQueueGone) {
    handle.reset();
    return;
  }
  // Not the last owner: dropping only decrements a count. (use_count is a
  // hint under concurrency; a wrong guess merely destroys one level in place.)
  if (handle.use_count() > 1) {
    handle.reset();
    return;
  }
  tQueue.pending.push_back(std::move(handle));
}

/// Destroys queued nodes one at a time unless an outer destructor already is.
void drain() {
  if (tQueueGone) return;
  ReleaseQueue& q = tQueue;
  if (q.draining) return;
  q.draining = true;
  while (!q.pending.empty()) {
    Expr last = std::move(q.pending.back());
    q.pending.pop_back();
    last.reset();  // its destructor defers its own children into the queue
  }
  q.draining = false;
}

}  // namespace

CallNode::~CallNode() {
  defer(callee);
  for (Expr& a : args) defer(a);
  drain();
}

TupleNode::~TupleNode() {
  for (Expr& f : fields) defer(f);
  drain();
}

TupleGetItemNode::~TupleGetItemNode() {
  defer(tuple);
  drain();
}

LetNode::~LetNode() {
  defer(var);
  defer(value);
  defer(body);
  drain();
}

IfNode::~IfNode() {
  defer(cond);
  defer(thenBranch);
  defer(elseBranch);
  drain();
}

FunctionNode::~FunctionNode() {
  for (Var& p : params) defer(p);
  defer(body);
  drain();
}

DataflowNode::~DataflowNode() {
  for (Binding& b : bindings) {
    defer(b.var);
    defer(b.value);
  }
  defer(body);
  drain();
}

}  // namespace passlab
