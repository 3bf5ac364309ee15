// ConvertLayout: convolutions to a desired data/kernel layout.
#pragma once

#include <string>

#include "core/pass/pass.h"

namespace passlab {

/// Desired layouts (pipeline: `ConvertLayout{data_layout=NHWC, kernel_layout=HWIO}`).
struct ConvertLayoutOptions {
  /// Data layout for nn.conv2d: NCHW or NHWC.
  std::string dataLayout = "NHWC";
  /// Kernel layout: OIHW, HWIO or OHWI, or "default" (OIHW for NCHW, HWIO for NHWC).
  std::string kernelLayout = "default";
};

/// Reads TVM's `desired_layouts` option into `options`:
/// `{nn.conv2d=[NHWC,OHWI]}` (the key may also be spelled relax.nn.conv2d, as
/// TVM's Relax pass spells it; the list holds the data then the kernel layout,
/// or the data layout alone for the default kernel layout). Throws
/// DiagnosticError for another op key, an empty or longer list, or a
/// non-string entry.
void applyDesiredLayouts(const AttrDict& desired, ConvertLayoutOptions& options);

/// The ConvertLayout pass (TVM's ConvertLayout with desired layouts for
/// nn.conv2d). Every ungrouped nn.conv2d in NCHW or NHWC is rewritten to the
/// desired layouts: its data goes through layout_transform (unless it already
/// arrives in that layout) and its kernel through layout_transform to the
/// kernel layout — a constant kernel thereby becomes a constant subexpression
/// FoldConstant folds into a transformed constant. The new layout then flows
/// through the ops that can follow it: elementwise ops, broadcasting binary
/// ops (a 4-d operand is transformed too, a lower-rank one when its axes stay
/// trailing, e.g. CHW → HWC), bias_add and batch_norm (axis remapped), pooling
/// (layout attribute), nn.pad (pad widths permuted) and concatenate (axis
/// remapped). Every other consumer, the function result and every binding get
/// the value transformed back, so the function's signature never changes.
/// Results are typed; functions without convolutions to convert are returned
/// unchanged. Throws DiagnosticError for an unsupported layout option.
/// On a Relax (TVMScript) module the Relax form runs instead
/// (passes/convert_layout_relax.h): R.permute_dims bindings, TVM's rules.
PassPtr createConvertLayoutPass(const ConvertLayoutOptions& options = {});

}  // namespace passlab
