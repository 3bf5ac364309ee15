// The Relax spelling table (see tvmscript_ops.h). Attribute order follows
// TVM's Relax op signatures (python/tvm/relax/op), which is the order TVM's
// printer writes them in.
#include "core/text/tvmscript_ops.h"

#include <algorithm>

namespace passlab::tvmscript {

namespace {

using C = AttrConv;

const std::vector<RelaxOpSpec>& table() {
  static const std::vector<RelaxOpSpec> specs = {
      {OpId::Conv2D,
       "nn.conv2d",
       {{"strides", "strides"},
        {"padding", "padding", C::Pad4},
        {"dilation", "dilation"},
        {"groups", "groups"},
        {"data_layout", "data_layout"},
        {"kernel_layout", "kernel_layout"},
        {"out_layout", "out_layout", C::OutLayout, "data_layout"},
        {"out_dtype", "out_dtype", C::OutDtype}}},
      {OpId::Conv2DTranspose,
       "nn.conv2d_transpose",
       {{"strides", "strides"},
        {"padding", "padding", C::Pad4},
        {"output_padding", "output_padding"},
        {"dilation", "dilation"},
        {"groups", "groups"},
        {"data_layout", "data_layout"},
        {"kernel_layout", "kernel_layout"},
        {"out_layout", "out_layout", C::OutLayout, "data_layout"},
        {"out_dtype", "out_dtype", C::OutDtype}}},
      {OpId::MaxPool2D,
       "nn.max_pool2d",
       {{"pool_size", "pool_size"},
        {"strides", "strides"},
        {"dilation", "dilation"},
        {"padding", "padding", C::Pad4},
        {"ceil_mode", "ceil_mode"},
        {"count_include_pad", "", C::Fixed, "False"},
        {"layout", "layout"},
        {"out_layout", "out_layout", C::OutLayout, "layout"}}},
      {OpId::AvgPool2D,
       "nn.avg_pool2d",
       {{"pool_size", "pool_size"},
        {"strides", "strides"},
        {"dilation", "dilation"},
        {"padding", "padding", C::Pad4},
        {"ceil_mode", "ceil_mode"},
        {"count_include_pad", "count_include_pad"},
        {"layout", "layout"},
        {"out_layout", "out_layout", C::OutLayout, "layout"}}},
      {OpId::GlobalAvgPool2D,
       "nn.adaptive_avg_pool2d",
       {{"output_size", "", C::Must, "[1, 1]"}, {"layout", "layout"}, {"out_layout", "out_layout", C::OutLayout, "layout"}}},
      {OpId::Softmax, "nn.softmax", {{"axis", "axis"}}},
      {OpId::LeakyRelu, "nn.leaky_relu", {{"alpha", "alpha"}}},
      {OpId::BatchNorm,
       "nn.batch_norm",
       {{"axis", "axis"},
        {"epsilon", "epsilon"},
        {"center", "center"},
        {"scale", "scale"},
        {"momentum", "momentum"},
        {"training", "training", C::BoolDefault, "True"}}},
      {OpId::LayerNorm,
       "nn.layer_norm",
       {{"axes", "axis", C::AxisList}, {"epsilon", "epsilon"}, {"center", "center"}, {"scale", "scale"}}},
      {OpId::GroupNorm,
       "nn.group_norm",
       {{"num_groups", "num_groups"},
        {"channel_axis", "channel_axis"},
        {"axes", "axes"},
        {"epsilon", "epsilon"},
        {"center", "center"},
        {"scale", "scale"}}},
      {OpId::Matmul, "matmul", {{"out_dtype", "out_dtype", C::OutDtype}}},
      {OpId::Transpose, "permute_dims", {{"axes", "axes"}}},
      {OpId::Reshape, "reshape", {{"shape", "newshape", C::Positional}}},
      {OpId::Cast, "astype", {{"dtype", "dtype"}}},
      {OpId::Concatenate, "concat", {{"axis", "axis"}}},
      {OpId::Split, "split", {{"indices_or_sections", "indices_or_sections"}, {"axis", "axis"}}},
      {OpId::Squeeze, "squeeze", {{"axis", "axis"}}},
      {OpId::StridedSlice,
       "strided_slice",
       {{"axes", "axes"},
        {"begin", "begin"},
        {"end", "end"},
        {"strides", "strides"},
        {"assume_inbound", "", C::Fixed, "False"}}},
      {OpId::Zeros, "zeros", {{"shape", "shape", C::Positional}, {"dtype", "dtype"}}},
      {OpId::Ones, "ones", {{"shape", "shape", C::Positional}, {"dtype", "dtype"}}},
      {OpId::Take, "take", {{"axis", "axis"}, {"mode", "mode"}}},
      {OpId::Clip, "clip", {{"min", "a_min", C::Positional}, {"max", "a_max", C::Positional}}},
      {OpId::Mean, "mean", {{"axis", "axis"}, {"keepdims", "keepdims"}}},
      {OpId::Sum, "sum", {{"axis", "axis"}, {"keepdims", "keepdims"}}},
      {OpId::Max, "max", {{"axis", "axis"}, {"keepdims", "keepdims"}}},
      {OpId::Min, "min", {{"axis", "axis"}, {"keepdims", "keepdims"}}},
      {OpId::Prod, "prod", {{"axis", "axis"}, {"keepdims", "keepdims"}}},
      {OpId::ArgMax, "argmax", {{"axis", "axis"}, {"keepdims", "keepdims"}}},
      {OpId::ArgMin, "argmin", {{"axis", "axis"}, {"keepdims", "keepdims"}}},
      {OpId::Resize2D,
       "image.resize2d",
       {{"size", "size", C::Positional},
        {"roi", "roi", C::Plain, "[0.0, 0.0, 0.0, 0.0]"},
        {"layout", "layout"},
        {"method", "method"},
        {"coordinate_transformation_mode", "coordinate_transformation_mode"},
        {"rounding_method", "rounding_method"},
        {"cubic_alpha", "cubic_alpha"},
        {"cubic_exclude", "cubic_exclude"},
        {"extrapolation_value", "extrapolation_value"},
        {"out_dtype", "out_dtype", C::OutDtype}}},
  };
  return specs;
}

}  // namespace

const RelaxOpSpec* relaxSpecFor(OpId id) {
  for (const RelaxOpSpec& s : table())
    if (s.id == id) return &s;
  return nullptr;
}

const RelaxOpSpec* relaxSpecNamed(std::string_view name) {
  for (const RelaxOpSpec& s : table())
    if (s.name == name) return &s;
  return nullptr;
}

std::string_view relaxUnsupportedHint(std::string_view name) {
  static const std::pair<std::string_view, std::string_view> hints[] = {
      {"nn.gelu_tanh", "passlab has no gelu op yet"},
      {"permute", "the Relax name is R.permute_dims"},
      {"transpose", "the Relax name is R.permute_dims"},
      {"concatenate", "the Relax name is R.concat"},
      {"cast", "the Relax name is R.astype"},
  };
  for (const auto& [n, h] : hints)
    if (n == name) return h;
  return {};
}

}  // namespace passlab::tvmscript
