// BindParams: TVM's relax.transform.BindParams(func_name, params).
#pragma once

#include <string>

#include "core/pass/pass.h"

namespace passlab {

/// What BindParams binds: the function and its parameters' values as text.
struct BindParamsOptions {
  /// The module function whose parameters are bound.
  std::string funcName = "main";
  /// `name=value;name=value`: each value a number or a nested list of numbers
  /// (`w=[[1,2],[3,4]]`) whose nesting is the parameter's annotated static
  /// shape, in its dtype (a scalar parameter takes a bare number).
  std::string params;
};

/// The BindParams pass: every named parameter of the function goes from its
/// signature and its uses read a constant of the given value. A name the
/// function has no parameter for, a value that does not fit the parameter's
/// type or a function that is not in the module is an error naming it.
PassPtr createBindParamsPass(const BindParamsOptions& options);

}  // namespace passlab
