// Small syntax tables shared by the parser and the printer (internal to core/text),
// so the two can never disagree on precedence or spelling.
#pragma once

#include <optional>
#include <string_view>

#include "core/ir/tir.h"

namespace passlab::text {

/// Binding strength of a TIR binary operator written infix (higher binds
/// tighter); 0 for operators written as calls (min, max, floordiv, floormod).
inline int tirPrecedence(tir::BinaryOp op) {
  using tir::BinaryOp;
  switch (op) {
    case BinaryOp::Or: return 1;
    case BinaryOp::And: return 2;
    case BinaryOp::EQ:
    case BinaryOp::NE: return 3;
    case BinaryOp::LT:
    case BinaryOp::LE:
    case BinaryOp::GT:
    case BinaryOp::GE: return 4;
    case BinaryOp::Add:
    case BinaryOp::Sub: return 5;
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::Mod: return 6;
    case BinaryOp::Min:
    case BinaryOp::Max:
    case BinaryOp::FloorDiv:
    case BinaryOp::FloorMod: return 0;
  }
  return 0;
}

/// Precedence of unary `!` and of everything written as a primary (calls, loads, literals).
inline constexpr int kTirUnaryPrecedence = 7;
inline constexpr int kTirPrimaryPrecedence = 8;

/// The binary operators written as calls: min(a, b), floordiv(a, b), ...
inline std::optional<tir::BinaryOp> tirCallFormOp(std::string_view name) {
  using tir::BinaryOp;
  if (name == "min") return BinaryOp::Min;
  if (name == "max") return BinaryOp::Max;
  if (name == "floordiv") return BinaryOp::FloorDiv;
  if (name == "floormod") return BinaryOp::FloorMod;
  return std::nullopt;
}

/// Loop kinds by name.
inline std::optional<tir::ForKind> forKindFromName(std::string_view name) {
  using tir::ForKind;
  if (name == "serial") return ForKind::Serial;
  if (name == "parallel") return ForKind::Parallel;
  if (name == "vectorized") return ForKind::Vectorized;
  if (name == "unrolled") return ForKind::Unrolled;
  return std::nullopt;
}

}  // namespace passlab::text
