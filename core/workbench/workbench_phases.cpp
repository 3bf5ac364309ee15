// The workbench's phase machinery: refusing out-of-phase pipeline passes unless
// forced, the verify-each instrument, and well-formedness queries (seed 002).
#include "core/analysis/well_formed.h"
#include "core/workbench/workbench.h"

namespace passlab {

MoveResult Workbench::forceStep(int n) {
  // Reset however the move ends, so a failed forced step never forces the next one.
  struct Reset {
    bool& flag;
    ~Reset() { flag = false; }
  } reset{forcePhase_};
  forcePhase_ = true;
  return step(n);
}

std::optional<std::string> Workbench::nextPassRefusal() const {
  if (!trace_ || !canRunMore()) return std::nullopt;
  return passPhaseRefusal(pipeline_[nextPass_]->info(), current_);
}

int Workbench::setVerifyEach(bool on) {
  verifyEach_ = on;
  if (!trace_) return 0;
  int discarded = discardFuture();
  installInstruments();
  return discarded;
}

int Workbench::setRemarks(bool on) {
  remarks_ = on;
  ctx_->setRemarksEnabled(on);
  if (!trace_) return 0;
  return discardFuture();
}

std::vector<Diagnostic> Workbench::wellFormed(int id, Side side) const { return checkWellFormed(moduleAt(id, side)); }

}  // namespace passlab
