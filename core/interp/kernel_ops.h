// Internal: the kernel families, one function per op group, implemented in the
// kernel files and dispatched from kernels.cpp.
#pragma once

#include "core/interp/kernel_util.h"

namespace passlab::kernels {

// elementwise.cpp
/// add, subtract, multiply, divide, power, maximum, minimum, equal, less, greater.
Value binaryKernel(const KernelCall& call, OpId op);
/// where(cond, x, y) with three-way broadcasting.
Value whereKernel(const KernelCall& call);
/// negative, abs, exp, log, sqrt, rsqrt, tanh, sigmoid, erf, round, floor, ceil, nn.relu.
Value unaryKernel(const KernelCall& call, OpId op);
/// clip(a_min, a_max).
Value clipKernel(const KernelCall& call);
/// nn.leaky_relu(alpha).
Value leakyReluKernel(const KernelCall& call);
/// cast(dtype).
Value castKernel(const KernelCall& call);

// conv.cpp
/// nn.conv2d in any permutation layout, groups, dilation, padding.
Value conv2dKernel(const KernelCall& call);
/// nn.conv2d_transpose.
Value conv2dTransposeKernel(const KernelCall& call);

// linear.cpp
/// nn.dense.
Value denseKernel(const KernelCall& call);
/// nn.matmul.
Value matmulKernel(const KernelCall& call);
/// nn.batch_matmul.
Value batchMatmulKernel(const KernelCall& call);

// nn.cpp
Value biasAddKernel(const KernelCall& call);
Value batchNormKernel(const KernelCall& call);
Value layerNormKernel(const KernelCall& call);
/// nn.group_norm: layer normalization over each group of channels and `axes`.
Value groupNormKernel(const KernelCall& call);
/// nn.max_pool2d and nn.avg_pool2d.
Value pool2dKernel(const KernelCall& call, bool isMax);
Value globalAvgPool2dKernel(const KernelCall& call);
Value softmaxKernel(const KernelCall& call);
Value padKernel(const KernelCall& call);

// transform.cpp
Value reshapeKernel(const KernelCall& call);
Value transposeKernel(const KernelCall& call);
Value concatenateKernel(const KernelCall& call);
Value splitKernel(const KernelCall& call);
Value squeezeKernel(const KernelCall& call);
Value expandDimsKernel(const KernelCall& call);
Value stridedSliceKernel(const KernelCall& call);
Value takeKernel(const KernelCall& call);
Value layoutTransformKernel(const KernelCall& call);

// image.cpp
/// image.resize2d: nearest_neighbor, linear and cubic with TVM's coordinate modes.
Value resize2dKernel(const KernelCall& call);

// reduce.cpp
/// mean, sum, max, min, prod.
Value reduceKernel(const KernelCall& call, OpId op);
/// argmax, argmin: int32 positions in the flattened reduced axes.
Value argReduceKernel(const KernelCall& call, OpId op);
/// zeros, ones.
Value initKernel(const KernelCall& call, double fill);
Value fullKernel(const KernelCall& call);
Value shapeOfKernel(const KernelCall& call);

}  // namespace passlab::kernels
