// ConvertLayout in Relax form: on a Relax (TVMScript) module, nn.conv2d is
// rewritten to the desired layouts the way TVM's relax.transform.ConvertLayout
// does it: R.permute_dims bindings in front of the convolution (data and
// kernel), the convolution with data_layout, kernel_layout and out_layout set,
// the new layout followed by the ops that can, and R.permute_dims back where a
// value must have its original layout again.
#pragma once

#include <string>

#include "core/ir/module.h"
#include "core/pass/pass.h"

namespace passlab {

/// The desired layouts of the Relax form (4-letter permutations of NCHW/OIHW).
struct RelaxLayouts {
  std::string data;    ///< "NHWC"
  std::string kernel;  ///< "OHWI"
};

/// `fn` (a Relax function of `mod`) with every dataflow block converted:
///  * nn.conv2d whose data and kernel layouts are permutations of NCHW/OIHW
///    gets `lv = R.permute_dims(x, axes)` for its data (from the layout the
///    value has at that point) and for its kernel (a fresh one per use, as TVM
///    emits it), and data_layout, kernel_layout and out_layout set;
///  * unary elementwise ops, and broadcasting binary ops whose tensor operands
///    are all 4-d or scalars, follow the layout of their first converted
///    operand (a 4-d operand not in it gets a permute_dims); pools and
///    adaptive_avg_pool2d take it through their layout attribute, softmax and
///    passlab's bias_add through their axis;
///  * as TVM's InferLayout functions do: concatenate takes the layout of its
///    first part (the other parts are permuted to it) and split keeps it in
///    every part, both with the axis found in it; the reductions (sum, mean,
///    max, min, prod) find their axes in it and keep it with keepdims, else
///    the remaining axes keep their order (often the original one again);
///    layer_norm follows with its axis found in it, batch_norm too while its
///    moving mean and variance keep their layout;
///  * a tuple result (split, batch_norm) carries a layout per field: its
///    projections keep the field's layout, and a block output is rebuilt
///    field by field, each projected and permuted back where it was converted;
///  * every other use of a converted value, and every output variable of a
///    block, gets the value permuted back to its original layout first.
/// Remarks (layout.converted, layout.already, layout.unsupported,
/// layout.follow, layout.transform-back) go to `ctx` when remarks are on.
/// Returns `fn` itself when no convolution was converted.
Function convertLayoutRelax(const Function& fn, const IRModule& mod, const RelaxLayouts& layouts, PassContext& ctx,
                            const std::string& pass, const std::string& global);

}  // namespace passlab
