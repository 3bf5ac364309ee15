// Pass remarks: why a pass did, or did not, rewrite a node (LLVM's -Rpass,
// -Rpass-missed, -Rpass-analysis). A pass records them through PassContext
// (core/pass/pass.h) exactly like config reads; instruments receive them and the
// trace keeps them on the event of the pass run. Passes never print them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/expr.h"

namespace passlab {

/// What a remark says about the rewrite.
enum class RemarkKind : uint8_t {
  Applied,   ///< the pass rewrote the nodes (LLVM's -Rpass)
  Missed,    ///< the pass could have, and did not (-Rpass-missed)
  Analysis,  ///< a fact the pass decided on (-Rpass-analysis)
};
/// "applied", "missed", "analysis".
std::string_view remarkKindName(RemarkKind kind);
/// The kind named `name` (the names above), or nullopt.
std::optional<RemarkKind> parseRemarkKind(std::string_view name);

/// Every rule id a pass may give a remark. Declared opaque here, so adding a
/// rule rebuilds only the passes that use it: the enumerators are in
/// core/pass/remark_rules.h, generated from core/pass/remarks.def.
enum class RemarkRule : uint16_t;

/// The vocabulary entry of a rule.
struct RemarkRuleInfo {
  RemarkRule rule;
  /// "fuse.pattern-boundary".
  std::string_view id;
  /// The pass that emits it.
  std::string_view pass;
  /// The kind it is emitted with.
  RemarkKind kind;
  /// One paragraph for docs/remarks.md and `help`.
  std::string_view description;
};
/// The entry of `rule`.
const RemarkRuleInfo& remarkRuleInfo(RemarkRule rule);
/// Every rule, in definition order (grouped by pass).
std::span<const RemarkRuleInfo> allRemarkRules();
/// The rule whose id is `id`, or nullopt.
std::optional<RemarkRule> findRemarkRule(std::string_view id);

/// One remark.
struct Remark {
  /// The pass that emitted it.
  std::string pass;
  RemarkKind kind = RemarkKind::Analysis;
  RemarkRule rule{};
  /// The global function it concerns ("" for the module).
  std::string function;
  /// The nodes it is about, in the module the pass was given (the event's
  /// `before` snapshot); faces name them as the printer does, so they stay
  /// stable across printing. The first is the main one.
  std::vector<Expr> nodes;
  /// The concrete reason, with values ("conv2d (OutEWiseFusable) → ...").
  std::string message;
  /// The kernel (PrimFunc) the nodes were lowered into, for LegalizeOps'
  /// remarks ("" otherwise): `remarks @KERNEL` and the profile table find a
  /// kernel's remarks by it.
  std::string kernel;
  /// Id and name of the context it was emitted in (set by PassContext::remark).
  int contextId = 0;
  std::string contextName;

  /// The rule id ("fuse.pattern-boundary").
  std::string_view ruleId() const { return remarkRuleInfo(rule).id; }
};

/// A remark of `rule` (kind from the vocabulary) by `pass` about `nodes` of `function`.
Remark makeRemark(std::string pass, RemarkRule rule, std::string function, std::vector<Expr> nodes, std::string message);

/// docs/remarks.md: every rule id with its pass, kind and description.
std::string remarksMarkdown();

}  // namespace passlab
