// Run-time checks of the graph-level interpreter: values against the types a
// function's parameters or an R.match_cast declare, binding the symbolic shape
// variables (`n`) they meet; and shape attributes made concrete under those
// bindings. Every failure is a located error with rule interp.type-mismatch.
#pragma once

#include "core/interp/value.h"
#include "core/ir/attrs.h"
#include "core/ir/expr.h"
#include "core/ir/shape_attr.h"
#include "core/ir/shape_expr.h"

namespace passlab::interp_checks {

/// Checks an argument against its parameter's declared type: static extents,
/// and symbolic ones through `env`, which binds each shape variable to the
/// extent it first meets, so every parameter must agree on it.
void checkArgument(const Type& declared, const Value& v, const VarNode& param, const Span& span, shape::Env& env);
/// The attributes of an op call with every symbolic dimension of a shape
/// attribute (out_shape, newshape, shape, values, size, call_tir's tir_vars)
/// evaluated under `names`; an unbound variable is an error at `span`.
AttrDict concreteShapes(const AttrDict& attrs, const shape::NameEnv& names, const Span& span);
/// Whether any of those shape attributes mentions a shape variable.
bool hasSymbolicShapeAttr(const AttrDict& attrs);
/// A shape value's elements as a tuple of int64 prim values: how
/// vm.builtin.match_shape tells a shape (a 1-d int64 tensor) from a tensor.
Value shapeElementsTuple(const NDArray& shape);
/// When `value` is an R.match_cast: checks `v` against `var`'s declared type
/// and adds the shape variables the cast binds to `names`.
void checkMatchCast(const VarNode& var, const Expr& value, const Value& v, shape::NameEnv& names);

}  // namespace passlab::interp_checks
