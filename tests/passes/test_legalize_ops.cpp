// LegalizeOps: every lowered op and every fused function runs in the TIR
// interpreter with the numbers of the graph-level reference kernels; link_params
// embeds constants (float16 bit-exactly) or passes them; unsupported ops are
// located diagnostics; lowered modules print, parse and print back identically.
#include <catch2/catch.hpp>

#include <set>

#include "core/analysis/type_infer.h"
#include "core/analysis/well_formed.h"
#include "core/ir/op.h"
#include "passes/fuse_ops.h"
#include "passes/legalize_ops.h"
#include "passes/opt_util.h"
#include "tests/opt_test_util.h"

using namespace passlab;
using namespace passlab::testing;
namespace T = passlab::tir;

namespace {

/// One op case: parameter list, body, and the op it exercises.
struct OpCase {
  const char* op;
  const char* params;
  const char* body;
};

const OpCase kOpCases[] = {
    {"add", "%x: Tensor[(2, 3, 4), float32], %y: Tensor[(3, 1), float32]", "add(%x, %y)"},
    {"subtract", "%x: Tensor[(4, 5), float16], %y: Tensor[(5), float16]", "subtract(%x, %y)"},
    {"multiply", "%x: Tensor[(3, 4), float32]", "multiply(%x, 2.5f)"},
    {"divide", "%x: Tensor[(2, 8), float32], %y: Tensor[(2, 8), float32]", "divide(%x, add(abs(%y), 1f))"},
    {"power", "%x: Tensor[(6), float32]", "power(abs(%x), 1.5f)"},
    {"maximum", "%x: Tensor[(4, 4), float32], %y: Tensor[(4), float32]", "maximum(%x, %y)"},
    {"minimum", "%x: Tensor[(4, 4), float16], %y: Tensor[(4, 4), float16]", "minimum(%x, %y)"},
    {"equal", "%x: Tensor[(2, 3), int32], %y: Tensor[(2, 3), int32]", "equal(%x, %y)"},
    {"less", "%x: Tensor[(2, 3), float32], %y: Tensor[(2, 3), float32]", "cast(less(%x, %y), dtype=\"float32\")"},
    {"greater", "%x: Tensor[(5), float32], %y: Tensor[(5), float32]", "greater(%x, %y)"},
    {"where", "%x: Tensor[(3, 4), float32], %y: Tensor[(3, 4), float32]", "where(greater(%x, %y), %x, %y)"},
    {"negative", "%x: Tensor[(7), float32]", "negative(%x)"},
    {"abs", "%x: Tensor[(2, 5), int32]", "abs(subtract(%x, 2))"},
    {"exp", "%x: Tensor[(3, 3), float16]", "exp(%x)"},
    {"log", "%x: Tensor[(8), float32]", "log(add(abs(%x), 0.5f))"},
    {"sqrt", "%x: Tensor[(8), float32]", "sqrt(abs(%x))"},
    {"rsqrt", "%x: Tensor[(8), float32]", "rsqrt(add(abs(%x), 1f))"},
    {"tanh", "%x: Tensor[(2, 4), float32]", "tanh(%x)"},
    {"sigmoid", "%x: Tensor[(2, 4), float16]", "sigmoid(%x)"},
    {"nn.gelu", "%x: Tensor[(2, 4), float32]", "nn.gelu(%x)"},
    {"nn.silu", "%x: Tensor[(3, 4), float32]", "nn.silu(%x)"},
    {"erf", "%x: Tensor[(9), float32]", "erf(%x)"},
    {"sin", "%x: Tensor[(2, 5), float32]", "sin(multiply(%x, 3f))"},
    {"cos", "%x: Tensor[(9), float16]", "cos(%x)"},
    {"tan", "%x: Tensor[(8), float32]", "tan(%x)"},
    {"asin", "%x: Tensor[(8), float32]", "asin(multiply(%x, 0.19f))"},
    {"acos", "%x: Tensor[(8), float32]", "acos(multiply(%x, 0.19f))"},
    {"atan", "%x: Tensor[(3, 3), float32]", "atan(multiply(%x, 4f))"},
    {"sinh", "%x: Tensor[(8), float32]", "sinh(%x)"},
    {"cosh", "%x: Tensor[(8), float32]", "cosh(%x)"},
    {"asinh", "%x: Tensor[(8), float32]", "asinh(multiply(%x, 10f))"},
    {"acosh", "%x: Tensor[(8), float32]", "acosh(add(abs(%x), 1f))"},
    {"atanh", "%x: Tensor[(8), float32]", "atanh(multiply(%x, 0.19f))"},
    {"clip", "%x: Tensor[(3, 5), float32]", "clip(%x, a_min=-0.25f, a_max=0.5f)"},
    {"round", "%x: Tensor[(10), float32]", "round(multiply(%x, 4f))"},
    {"floor", "%x: Tensor[(10), float32]", "floor(multiply(%x, 4f))"},
    {"ceil", "%x: Tensor[(10), float32]", "ceil(multiply(%x, 4f))"},
    {"nn.relu", "%x: Tensor[(1, 4, 3, 3), float32]", "nn.relu(%x)"},
    {"nn.leaky_relu", "%x: Tensor[(12), float32]", "nn.leaky_relu(%x, alpha=0.1f)"},
    {"cast", "%x: Tensor[(2, 6), float32]", "cast(%x, dtype=\"float16\")"},
    {"nn.conv2d", "%x: Tensor[(1, 3, 7, 7), float32], %w: Tensor[(4, 3, 3, 3), float32]",
     "nn.conv2d(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3])"},
    {"nn.conv2d", "%x: Tensor[(1, 6, 6, 3), float32], %w: Tensor[(3, 3, 3, 5), float32]",
     "nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=5, kernel_size=[3, 3], data_layout=\"NHWC\", kernel_layout=\"HWIO\")"},
    {"nn.conv2d", "%x: Tensor[(1, 5, 5, 4), float32], %w: Tensor[(6, 2, 2, 4), float32]",
     "nn.conv2d(%x, %w, dilation=[2, 2], channels=6, kernel_size=[2, 2], data_layout=\"NHWC\", kernel_layout=\"OHWI\")"},
    {"nn.conv2d", "%x: Tensor[(1, 4, 5, 5), float16], %w: Tensor[(4, 2, 3, 3), float16]",
     "nn.conv2d(%x, %w, padding=[0, 1, 2, 1], groups=2, channels=4, kernel_size=[3, 3])"},
    {"nn.conv2d_transpose", "%x: Tensor[(1, 3, 4, 4), float32], %w: Tensor[(3, 2, 3, 3), float32]",
     "nn.conv2d_transpose(%x, %w, channels=2, kernel_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])"},
    {"nn.conv2d_transpose", "%x: Tensor[(1, 2, 5, 5), float32], %w: Tensor[(2, 3, 3, 3), float32]",
     "nn.conv2d_transpose(%x, %w, channels=3, kernel_size=[3, 3], padding=[0, 1, 2, 1], dilation=[2, 2])"},
    {"nn.conv2d_transpose", "%x: Tensor[(2, 2, 3, 3), float32], %w: Tensor[(2, 2, 3, 3), float32]",
     "nn.conv2d_transpose(%x, %w, channels=2, kernel_size=[3, 3], strides=[3, 2], output_padding=[2, 1], padding=[1, 1, 1, 1], dilation=[1, 2])"},
    {"nn.conv2d_transpose", "%x: Tensor[(1, 4, 4, 4), float32], %w: Tensor[(4, 3, 3, 3), float32]",
     "nn.conv2d_transpose(%x, %w, channels=6, kernel_size=[3, 3], strides=[2, 2], groups=2)"},
    {"nn.conv2d_transpose", "%x: Tensor[(1, 2, 5, 5), float16], %w: Tensor[(2, 2, 4, 4), float16]",
     "nn.conv2d_transpose(%x, %w, channels=2, kernel_size=[4, 4], strides=[2, 2], padding=[1, 1, 1, 1])"},
    {"nn.conv2d_transpose", "%x: Tensor[(1, 3, 4, 6), float32], %w: Tensor[(3, 2, 2, 5), float32]",
     "nn.conv2d_transpose(%x, %w, channels=2, kernel_size=[2, 5], strides=[1, 3], padding=[0, 2, 1, 0])"},
    {"nn.conv2d_transpose", "%x: Tensor[(1, 2, 3, 3), float32], %w: Tensor[(2, 2, 1, 1), float32]",
     "nn.conv2d_transpose(%x, %w, channels=2, kernel_size=[1, 1], strides=[2, 2], output_padding=[1, 1])"},
    {"nn.conv2d_transpose", "%x: Tensor[(1, 4, 4, 3), float32], %w: Tensor[(3, 3, 2, 3), float32]",
     "nn.conv2d_transpose(%x, %w, channels=2, kernel_size=[3, 3], strides=[2, 2], padding=[2, 0, 0, 1], dilation=[2, 2], data_layout=\"NHWC\", kernel_layout=\"HWOI\")"},
    {"nn.dense", "%x: Tensor[(3, 37), float32], %w: Tensor[(5, 37), float32]", "nn.dense(%x, %w, units=5)"},
    {"nn.dense", "%x: Tensor[(2, 16), float16], %w: Tensor[(4, 16), float16]", "nn.dense(%x, %w, units=4, out_dtype=\"float32\")"},
    {"nn.matmul", "%x: Tensor[(3, 6), float32], %w: Tensor[(6, 4), float32]", "nn.matmul(%x, %w)"},
    {"nn.batch_matmul", "%x: Tensor[(2, 3, 5), float32], %y: Tensor[(1, 4, 5), float32]", "nn.batch_matmul(%x, %y)"},
    // N-d data: [..., K] x [N, K] (a transformer's [1, T, C] activation), and a vector.
    {"nn.dense", "%x: Tensor[(2, 3, 37), float32], %w: Tensor[(5, 37), float32]", "nn.dense(%x, %w, units=5)"},
    {"nn.dense", "%x: Tensor[(1, 2, 2, 9), float16], %w: Tensor[(3, 9), float16]", "nn.dense(%x, %w, units=3)"},
    {"nn.dense", "%x: Tensor[(11), float32], %w: Tensor[(4, 11), float32]", "nn.dense(%x, %w)"},
    {"nn.matmul", "%x: Tensor[(2, 3, 6), float32], %w: Tensor[(6, 4), float32]", "nn.matmul(%x, %w)"},
    {"nn.matmul", "%x: Tensor[(2, 6, 3), float32], %w: Tensor[(4, 6), float32]", "nn.matmul(%x, %w, transpose_a=True, transpose_b=True)"},
    {"nn.matmul", "%x: Tensor[(5, 3), float32], %w: Tensor[(5, 4), float32]", "nn.matmul(%x, %w, transpose_a=True)"},
    {"nn.matmul", "%x: Tensor[(1, 2, 3, 20), float32], %w: Tensor[(7, 20), float32]", "nn.matmul(%x, %w, transpose_b=True)"},
    {"nn.batch_matmul", "%x: Tensor[(1, 5, 3), float32], %y: Tensor[(2, 5, 4), float32]",
     "nn.batch_matmul(%x, %y, transpose_a=True, transpose_b=False)"},
    {"nn.batch_matmul", "%x: Tensor[(3, 2, 6), float32], %y: Tensor[(3, 6, 4), float32]", "nn.batch_matmul(%x, %y, transpose_b=False)"},
    {"nn.bias_add", "%x: Tensor[(1, 4, 3, 3), float32], %b: Tensor[(4), float32]", "nn.bias_add(%x, %b)"},
    {"nn.max_pool2d", "%x: Tensor[(1, 2, 7, 7), float32]", "nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])"},
    {"nn.avg_pool2d", "%x: Tensor[(1, 2, 6, 6), float32]",
     "nn.avg_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1], ceil_mode=True)"},
    {"nn.avg_pool2d", "%x: Tensor[(1, 5, 5, 3), float16]",
     "nn.avg_pool2d(%x, pool_size=[2, 2], padding=[1, 1, 1, 1], layout=\"NHWC\", count_include_pad=True)"},
    {"nn.global_avg_pool2d", "%x: Tensor[(1, 3, 4, 5), float32]", "nn.global_avg_pool2d(%x)"},
    {"image.resize2d", "%x: Tensor[(1, 2, 5, 7), float32]",
     "image.resize2d(%x, size=[8, 10], method=\"nearest_neighbor\", coordinate_transformation_mode=\"asymmetric\", rounding_method=\"floor\")"},
    {"image.resize2d", "%x: Tensor[(1, 2, 4, 4), float32]",
     "image.resize2d(%x, size=[8, 2], method=\"nearest_neighbor\", coordinate_transformation_mode=\"half_pixel\", rounding_method=\"round_prefer_ceil\")"},
    {"image.resize2d", "%x: Tensor[(1, 3, 4, 5), float32]",
     "image.resize2d(%x, size=[7, 9], method=\"linear\", coordinate_transformation_mode=\"align_corners\")"},
    {"image.resize2d", "%x: Tensor[(2, 2, 5, 4), float32]",
     "image.resize2d(%x, size=[3, 7], method=\"linear\", coordinate_transformation_mode=\"half_pixel\")"},
    {"image.resize2d", "%x: Tensor[(1, 2, 6, 6), float32]",
     "image.resize2d(%x, size=[9, 4], method=\"cubic\", cubic_alpha=-0.5f, cubic_exclude=1)"},
    {"image.resize2d", "%x: Tensor[(1, 2, 5, 6), float32]",
     "image.resize2d(%x, size=[6, 7], roi=[0.2f, -0.3f, 1.2f, 0.9f], method=\"linear\", coordinate_transformation_mode=\"tf_crop_and_resize\", "
     "extrapolation_value=-1.5f)"},
    {"image.resize2d", "%x: Tensor[(1, 5, 6, 3), float32]",
     "image.resize2d(%x, size=[7, 4], layout=\"NHWC\", method=\"cubic\", coordinate_transformation_mode=\"asymmetric\", cubic_alpha=-0.75f)"},
    {"image.resize2d", "%x: Tensor[(1, 2, 5, 5), float16]",
     "image.resize2d(%x, size=[3, 8], method=\"linear\", coordinate_transformation_mode=\"pytorch_half_pixel\")"},
    {"image.resize2d", "%x: Tensor[(1, 1, 4, 4), int32]",
     "image.resize2d(%x, size=[6, 7], method=\"cubic\", coordinate_transformation_mode=\"align_corners\")"},
    {"nn.softmax", "%x: Tensor[(2, 3, 5), float32]", "nn.softmax(%x, axis=1)"},
    {"nn.pad", "%x: Tensor[(2, 3), float32]", "nn.pad(%x, 0.5f, pad_width=[[1, 0], [2, 1]])"},
    {"nn.pad", "%x: Tensor[(3, 4), float32]", "nn.pad(%x, 0f, pad_width=[[2, 1], [3, 3]], pad_mode=\"reflect\")"},
    {"nn.pad", "%x: Tensor[(2, 1, 3), int32]", "nn.pad(%x, 0, pad_width=[[1, 2], [2, 0], [0, 4]], pad_mode=\"edge\")"},
    {"take", "%x: Tensor[(2, 3, 4), float32], %i: Tensor[(2, 2), int32]", "take(%x, %i, axis=1)"},
    {"take", "%x: Tensor[(3, 5), int32], %i: Tensor[(4), int32]", "take(%x, subtract(%i, 2), axis=0, mode=\"wrap\")"},
    {"take", "%x: Tensor[(2, 4), float16], %i: Tensor[(3, 2), int32]", "take(%x, subtract(%i, 3), axis=-1, mode=\"fast\")"},
    {"take", "%x: Tensor[(2, 3), float32], %i: Tensor[(2, 2), int64]", "take(%x, add(%i, 1i64))"},
    {"take", "%x: Tensor[(2, 4, 3), float32], %i: Tensor[(2, 3), int64]", "take(%x, subtract(%i, 2i64), axis=1, batch_dims=1)"},
    {"take", "%x: Tensor[(5), int8], %i: Tensor[(2, 3), int8]", "take(%x, multiply(%i, 2i8), mode=\"clip\", axis=0)"},
    {"split", "%x: Tensor[(2, 6), float32]", "%0 = split(%x, indices_or_sections=3, axis=1);\n  add(%0.0, %0.2)"},
    {"split", "%x: Tensor[(5, 2, 3), int32]", "%0 = split(%x, indices_or_sections=[1, 3], axis=-3);\n  %0.1"},
    {"split", "%x: Tensor[(4, 3), float32]", "%0 = split(%x, indices_or_sections=[2], axis=0);\n  (%0.1, %0.0)"},
    {"power", "%x: Tensor[(2, 4), int32], %y: Tensor[(4), int32]", "power(subtract(multiply(%x, 2), 3), subtract(multiply(%y, 3), 2))"},
    {"power", "%x: Tensor[(6), int8]", "power(add(%x, 3i8), 9i8)"},
    {"power", "%x: Tensor[(3, 2), int64]", "power(add(%x, 2i64), 45i64)"},
    {"reshape", "%x: Tensor[(2, 3, 4), float32]", "reshape(%x, newshape=[4, 6])"},
    {"squeeze", "%x: Tensor[(1, 3, 1, 2), float32]", "squeeze(%x, axis=[0, 2])"},
    {"expand_dims", "%x: Tensor[(3, 2), float32]", "expand_dims(%x, axis=1, num_newaxis=2)"},
    {"transpose", "%x: Tensor[(2, 3, 4), float32]", "transpose(%x, axes=[2, 0, 1])"},
    {"concatenate", "%x: Tensor[(2, 3), float32], %y: Tensor[(2, 2), float32]", "concatenate((%x, %y, %x), axis=1)"},
    {"strided_slice", "%x: Tensor[(5, 6), float32]", "strided_slice(%x, begin=[1, -1], end=[4, 0], strides=[2, -2])"},
    {"layout_transform", "%x: Tensor[(1, 8, 2, 3), float32]", "layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NHWC4c\")"},
    {"layout_transform", "%x: Tensor[(1, 3, 2, 2), float32]", "layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NHWC\")"},
    {"sum", "%x: Tensor[(3, 4, 5), float16]", "sum(%x, axis=[0, 2], keepdims=True)"},
    {"mean", "%x: Tensor[(3, 4, 5), float32]", "mean(%x, axis=[1])"},
    {"max", "%x: Tensor[(3, 4), float32]", "max(%x)"},
    {"min", "%x: Tensor[(3, 4), int32]", "min(%x, axis=[0], exclude=True)"},
    {"prod", "%x: Tensor[(3, 4, 5), float32]", "prod(%x, axis=[0, 2], keepdims=True)"},
    {"prod", "%x: Tensor[(4, 6), float16]", "prod(%x, axis=[1])"},
    {"prod", "%x: Tensor[(3, 5), int32]", "prod(%x)"},
    {"argmax", "%x: Tensor[(3, 4, 5), float32]", "argmax(%x, axis=[1], keepdims=True)"},
    {"argmax", "%x: Tensor[(2, 3, 4), float16]", "argmax(%x)"},
    {"argmax", "%x: Tensor[(3, 4, 5), int32]", "argmax(%x, axis=[0, 2], select_last_index=True)"},
    {"argmin", "%x: Tensor[(4, 6), int32]", "argmin(%x, axis=[1], select_last_index=True)"},
    {"argmin", "%x: Tensor[(4, 6), int8]", "argmin(%x, axis=[0])"},
    {"argmin", "%x: Tensor[(3, 4), float32]", "argmin(%x, axis=[1], exclude=True)"},
    {"mod", "%x: Tensor[(2, 5), float32], %y: Tensor[(5), float32]", "mod(%x, add(abs(%y), 0.5f))"},
    {"mod", "%x: Tensor[(3, 4), int32], %y: Tensor[(3, 4), int32]", "mod(%x, where(greater(%y, 0), add(%y, 1), subtract(%y, 1)))"},
    {"floor_mod", "%x: Tensor[(3, 4), int32], %y: Tensor[(4), int32]", "floor_mod(%x, where(greater(%y, 0), add(%y, 1), subtract(%y, 1)))"},
    {"floor_mod", "%x: Tensor[(8), int64]", "floor_mod(%x, -3i64)"},
    {"floor_mod", "%x: Tensor[(6), float32]", "floor_mod(%x, -0.7f)"},
    {"zeros", "%x: Tensor[(2, 2), float32]", "add(%x, zeros(shape=[2, 2], dtype=\"float32\"))"},
    {"ones", "%x: Tensor[(2, 2), float32]", "add(%x, ones(shape=[2, 2], dtype=\"float32\"))"},
    {"full", "%x: Tensor[(3), float32]", "add(%x, full(1.5f, shape=[3], dtype=\"float32\"))"},
};

/// Ops of the table LegalizeOps leaves to other passes or does not lower.
const std::set<std::string> kNotLowered = {
    "nn.batch_norm", "nn.layer_norm", "nn.group_norm", "shape_of",
    "call_tir", "call_dps_packed", "call_pure_packed", "invoke_pure_closure", "match_cast", "vm.builtin.alloc_storage",
    "vm.builtin.alloc_tensor", "vm.builtin.call_tir",
    // Device planning: on_device is dropped, device_copy kept (tests/passes/test_devices.cpp).
    "on_device", "device_copy",
    // TVM's lowered forms: what lowering produces, not what it lowers.
    "call_lowered", "memory.alloc_storage", "memory.alloc_tensor", "memory.kill", "vm.shape_of", "vm.invoke_tvm_op",
    "vm.reshape_tensor",
    // Relax's VM-lowering forms (CallTIRRewrite ... LowerRuntimeBuiltin): also produced by lowering, never lowered.
    "relax.shape", "relax.prim_value", "relax.null_value", "relax.call_packed", "relax.builtin.alloc_tensor",
    "relax.memory.alloc_storage", "relax.memory.alloc_tensor", "relax.memory.kill_storage", "relax.memory.kill_tensor",
    "relax.vm.alloc_storage", "relax.vm.alloc_tensor", "relax.vm.kill_object", "relax.str", "relax.dtype",
    "relax.call_builtin_with_ctx"};

std::string moduleText(const OpCase& c) {
  return std::string("#[version = \"0.0.5\"]\n#[phase = 1]\ndef @main(") + c.params + ") {\n  " + c.body + "\n}\n";
}

/// The PrimFuncs of a module.
std::vector<const PrimFuncNode*> primFuncs(const IRModule& mod) {
  std::vector<const PrimFuncNode*> out;
  for (const auto& [name, fn] : mod->functions)
    if (const auto* p = as<PrimFuncNode>(fn)) out.push_back(p);
  return out;
}

/// Visits every statement of a TIR body.
void visitStmts(const T::Stmt& s, const std::function<void(const T::StmtNode&)>& f) {
  if (!s) return;
  f(*s);
  switch (s->kind) {
    case T::StmtKind::For: visitStmts(static_cast<const T::ForNode&>(*s).body, f); break;
    case T::StmtKind::LetStmt: visitStmts(static_cast<const T::LetStmtNode&>(*s).body, f); break;
    case T::StmtKind::IfThenElse:
      visitStmts(static_cast<const T::IfThenElseNode&>(*s).thenCase, f);
      visitStmts(static_cast<const T::IfThenElseNode&>(*s).elseCase, f);
      break;
    case T::StmtKind::Allocate: visitStmts(static_cast<const T::AllocateNode&>(*s).body, f); break;
    case T::StmtKind::AllocateConst: visitStmts(static_cast<const T::AllocateConstNode&>(*s).body, f); break;
    case T::StmtKind::Seq:
      for (const T::Stmt& p : static_cast<const T::SeqNode&>(*s).stmts) visitStmts(p, f);
      break;
    default: break;
  }
}

/// The embedded constants of every PrimFunc of `mod`.
std::vector<NDArray> embeddedConstants(const IRModule& mod) {
  std::vector<NDArray> out;
  for (const PrimFuncNode* p : primFuncs(mod))
    visitStmts(p->body, [&](const T::StmtNode& s) {
      if (s.kind == T::StmtKind::AllocateConst) out.push_back(static_cast<const T::AllocateConstNode&>(s).data);
    });
  return out;
}

/// Loop kinds used by the PrimFunc `name`.
std::set<T::ForKind> loopKinds(const IRModule& mod, const std::string& name) {
  std::set<T::ForKind> kinds;
  const auto* p = as<PrimFuncNode>(mod->lookup(name));
  REQUIRE(p);
  visitStmts(p->body, [&](const T::StmtNode& s) {
    if (s.kind == T::StmtKind::For) kinds.insert(static_cast<const T::ForNode&>(s).forKind);
  });
  return kinds;
}

/// Op calls of `fn` other than the lowering builtins.
size_t remainingOpCalls(const Expr& fn) {
  size_t n = 0;
  postOrderVisit(fn, [&](const Expr& e) {
    const CallNode* c = as<CallNode>(e);
    n += c && c->op() && c->op()->id != OpId::CallTir;
  });
  return n;
}

/// Tolerance of a comparison: float16 results may differ in the last place
/// where the reference accumulates in another order.
void requireSameNumbers(const NumericCheckResult& r, double tolerance) {
  INFO("note: " << r.note << ", max abs " << r.maxAbsError << ", max rel " << r.maxRelError);
  REQUIRE(r.compared);
  CHECK(r.outputs >= 1);
  CHECK(r.maxRelError <= tolerance);
}

void requirePrintRoundTrip(const IRModule& mod) {
  std::string printed = printModule(mod);
  IRModule reparsed = parseModule(printed, "lowered.relay");
  // The printed module carries inferred types; the reparsed one gets them again.
  std::string again = printModule(inferTypes(reparsed));
  // Report the first line that differs: whole modules are too long to read.
  size_t at = 0;
  while (at < printed.size() && at < again.size() && printed[at] == again[at]) ++at;
  size_t lineStart = printed.rfind('\n', at == 0 ? 0 : at - 1);
  lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
  INFO("first difference at: " << printed.substr(lineStart, 160) << "\nreprinted as:      " << again.substr(lineStart, 160));
  CHECK(again == printed);
}

}  // namespace

TEST_CASE("LegalizeOps: every lowered op computes what its reference kernel computes", "[passes][legalize]") {
  const OpCase& c = GENERATE(from_range(std::begin(kOpCases), std::end(kOpCases)));
  INFO(c.op << ": " << c.body);
  IRModule mod = parse(moduleText(c));
  PipelineRun r;
  IRModule out = r.run("InferType,LegalizeOps", mod);
  CHECK(remainingOpCalls(mainOf(out)) == 0);
  CHECK(out->phase() == 2);
  CHECK_FALSE(primFuncs(out).empty());
  // A second run finds nothing to lower and returns the module itself.
  CHECK(r.run("LegalizeOps", out) == out);
  bool half = std::string(c.params).find("float16") != std::string::npos;
  requireSameNumbers(compareModules(mod, out, 7), half ? 2e-3 : 1e-6);
  requirePrintRoundTrip(out);
}

TEST_CASE("LegalizeOps: the op table is covered: each op is lowered and tested or reported as not lowered",
          "[passes][legalize]") {
  std::set<std::string> tested;
  for (const OpCase& c : kOpCases) tested.insert(c.op);
  for (const OpDef& op : allOps()) {
    INFO(op.name);
    CHECK(tested.count(std::string(op.name)) + kNotLowered.count(std::string(op.name)) == 1);
  }
}

TEST_CASE("LegalizeOps: an op without a lowering is a located diagnostic naming the op", "[passes][legalize]") {
  auto [text, op, line] = GENERATE(table<const char*, const char*, int>({
      {"#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 2, 3, 3), float32], %g: Tensor[(2), float32]) {\n"
       "  %0 = nn.relu(%x);\n  %1 = nn.batch_norm(%0, %g, %g, %g, %g);\n  %1.0\n}\n",
       "nn.batch_norm", 4},
      {"#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(4, 2), float32], %g: Tensor[(2), float32]) {\n"
       "  %0 = nn.relu(%x);\n  nn.layer_norm(%0, %g, %g)\n}\n",
       "nn.layer_norm", 4},
  }));
  IRModule mod = parse(text);
  PipelineRun r;
  try {
    r.run("InferType,LegalizeOps", mod);
    FAIL("LegalizeOps accepted " << op);
  } catch (const PassFailure& e) {
    REQUIRE(!e.diagnostics().empty());
    const Diagnostic& d = e.diagnostics()[0];
    CHECK(d.rule == "legalize.unsupported-op");
    CHECK_THAT(d.message, Catch::Contains(std::string("'") + op + "'"));
    CHECK(d.span.line == static_cast<uint32_t>(line));
    CHECK_THAT(d.render(), Catch::StartsWith("test.relay:" + std::to_string(line) + ":"));
  }
}

TEST_CASE("LegalizeOps: fused functions lower whole and give the numbers of the fused module", "[passes][legalize]") {
  IRModule mod = exampleModel("examples/cnn_block.relay");
  PipelineRun r;
  IRModule fused = r.run("InferType,SimplifyInference,FuseOps", mod);
  REQUIRE_FALSE(fusedFunctions(mainOf(fused)).empty());
  IRModule out = r.run("LegalizeOps", fused);
  CHECK(fusedFunctions(mainOf(out)).empty());
  CHECK(remainingOpCalls(mainOf(out)) == 0);
  // conv2d + bias_add + ... is one group: one PrimFunc holds the convolution and what fused into it.
  const PrimFuncNode* convGroup = nullptr;
  for (const auto& [name, fn] : out->functions)
    if (name.rfind("fused_nn_conv2d_nn_bias_add", 0) == 0) convGroup = as<PrimFuncNode>(fn);
  REQUIRE(convGroup);
  // Inside it no intermediate is a buffer: the elementwise chain after the
  // convolution (bias_add, multiply, add, ...) runs on each accumulated element.
  std::vector<std::string> scratch;
  visitStmts(convGroup->body, [&](const T::StmtNode& s) {
    if (s.kind == T::StmtKind::Allocate) {
      const std::string& n = static_cast<const T::AllocateNode&>(s).buffer->name;
      if (n.rfind("T_", 0) == 0) scratch.push_back(n);
    }
  });
  CHECK(scratch.empty());
  // The external-codegen function is left to its code generator, and the skip is recorded.
  CHECK(out->lookup("ext_block") == fused->lookup("ext_block"));
  requireSameNumbers(compareModules(mod, out, 3), 1e-5);
  requireSameNumbers(compareModules(fused, out, 4), 1e-5);
  // The phase-2 invariants hold: no un-legalized op, PrimFuncs well formed.
  std::vector<Diagnostic> problems = checkWellFormed(out);
  std::string listed;
  for (const Diagnostic& d : problems) listed += d.rule + ": " + d.message + "\n";
  INFO(listed);
  CHECK(problems.empty());
  requirePrintRoundTrip(out);
}

TEST_CASE("LegalizeOps: seed 000 in float16 with link-params embeds the float16 constants bit-exactly", "[passes][legalize][seed000]") {
  IRModule mod = exampleModel("examples/seed000/cnn_fp32.relay");
  AttrDict attrs = mod->attrs;
  attrs.set("executor", AttrValue::dict(AttrDict{{"kind", AttrValue::string("graph")}, {"link-params", AttrValue::integer(1)}}));
  mod = withModuleAttrs(mod, attrs);
  PipelineRun r;
  r.ctx->target = "hexagon -mcpu=hexagonv68 -mattr=+hvxv68,+hvx-length128b";
  IRModule fused = r.run("InferType,SimplifyInference,ToMixedPrecision,FoldConstant,FuseOps", mod);
  // The constants FuseOps kept inline in the fused functions.
  std::vector<NDArray> inlineConsts;
  for (const FunctionNode* f : fusedFunctions(mainOf(fused)))
    postOrderVisit(f->body, [&](const Expr& e) {
      if (const auto* k = as<ConstantNode>(e); k && k->data.ndim() > 0) inlineConsts.push_back(k->data);
    });
  REQUIRE_FALSE(inlineConsts.empty());
  IRModule out = r.run("LegalizeOps", fused);
  std::vector<NDArray> embedded = embeddedConstants(out);
  REQUIRE(embedded.size() == inlineConsts.size());
  size_t halves = 0;
  for (const NDArray& k : inlineConsts) {
    bool found = false;
    for (const NDArray& e : embedded) found = found || (e.dtype() == k.dtype() && e.shape() == k.shape() && e.bitwiseEqual(k));
    CHECK(found);
    halves += k.dtype() == DataType(DTypeCode::Float16);
  }
  CHECK(halves > 0);
  // No call_tir passes a constant: they are all linked.
  postOrderVisit(mainOf(out), [&](const Expr& e) { CHECK(e->kind != ExprKind::Constant); });
  // The read that decided it is recorded: the executor attribute.
  std::vector<std::string> reads = readsOf(*r.events("LegalizeOps").at(0));
  CHECK(std::find(reads.begin(), reads.end(), "executor.link-params=1(module attribute)") != reads.end());
  // Hexagon: no parallel loops; the device path still gets vectorized inner loops.
  for (const auto& [name, fn] : out->functions)
    if (as<PrimFuncNode>(fn)) CHECK(loopKinds(out, name).count(T::ForKind::Parallel) == 0);
  requireSameNumbers(compareModules(fused, out, 5), 2e-3);
  requireSameNumbers(compareModules(mod, out, 5), 5e-2);  // float16 against the float32 model
  requirePrintRoundTrip(out);
}

TEST_CASE("LegalizeOps: link_params decides whether a constant is embedded or a parameter", "[passes][legalize]") {
  const char* text = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 2, 8, 8), float16]) {
  %0 = nn.conv2d(%x, const(Tensor[(3, 2, 1, 1), float16], [0.1, -0.2, 0.3, 0.7, -1.5, 2.25]), channels=3, kernel_size=[1, 1]);
  add(%0, 1f16)
}
)";
  IRModule mod = parse(text);
  bool link = GENERATE(false, true);
  PipelineRun r;
  r.ctx->target = "llvm";
  r.ctx->setConfig(kFuseOpsLinkParamsKey, AttrValue::boolean(link));
  IRModule out = r.run("InferType,LegalizeOps", mod);
  const auto* conv = as<PrimFuncNode>(out->lookup("nn_conv2d"));
  REQUIRE(conv);
  // Inputs (data, and the weight when not linked) then the output.
  CHECK(conv->params.size() == (link ? 2u : 3u));
  CHECK(embeddedConstants(out).size() == (link ? 1u : 0u));
  size_t constArgs = 0;
  postOrderVisit(mainOf(out), [&](const Expr& e) { constArgs += e->kind == ExprKind::Constant; });
  CHECK(constArgs == (link ? 0u : 1u));
  std::vector<std::string> reads = readsOf(*r.events("LegalizeOps").at(0));
  CHECK(reads.at(0) == std::string("relay.FuseOps.link_params=") + (link ? "True" : "False") + "(PassContext)");
  // Host target: the convolution's outer loop (here over blocks of positions) is parallel and its lane loops vectorized.
  std::set<T::ForKind> kinds = loopKinds(out, "nn_conv2d");
  CHECK(kinds.count(T::ForKind::Parallel) == 1);
  CHECK(kinds.count(T::ForKind::Vectorized) == 1);
  requireSameNumbers(compareModules(mod, out, 9), 2e-3);
  requirePrintRoundTrip(out);
}

TEST_CASE("LegalizeOps: fused groups with shared values, tuples and reductions keep their numbers", "[passes][legalize]") {
  auto [params, body] = GENERATE(table<const char*, const char*>({
      {"%x: Tensor[(3, 8), float32]", "%0 = exp(%x);\n  %1 = sigmoid(%0);\n  multiply(%0, %1)"},
      {"%x: Tensor[(2, 3, 4), float32]", "%0 = add(%x, 1f);\n  %1 = reshape(%0, newshape=[6, 4]);\n  transpose(%1, axes=[1, 0])"},
      {"%x: Tensor[(1, 2, 5, 5), float32], %w: Tensor[(3, 2, 3, 3), float32]",
       "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=3, kernel_size=[3, 3]);\n  %1 = nn.relu(%0);\n  add(%1, %0)"},
      {"%x: Tensor[(2, 3), float32]", "%0 = exp(%x);\n  %1 = negative(%x);\n  concatenate((%0, %1), axis=0)"},
      {"%x: Tensor[(4, 6), float16]", "%0 = exp(%x);\n  %1 = sum(%0, axis=[1]);\n  sqrt(%1)"},
      {"%x: Tensor[(1, 4, 6, 6), float32]", "%0 = multiply(%x, 2f);\n  %1 = nn.max_pool2d(%0, pool_size=[2, 2], strides=[2, 2]);\n  nn.relu(%1)"},
      {"%x: Tensor[(3, 20), float16], %w: Tensor[(6, 20), float16], %b: Tensor[(6), float16]",
       "%0 = nn.dense(%x, %w, units=6);\n  %1 = nn.bias_add(%0, %b, axis=1);\n  %2 = nn.relu(%1);\n  multiply(%2, 0.5f16)"},
      {"%x: Tensor[(1, 5, 5, 2), float32], %w: Tensor[(3, 3, 2, 4), float32]",
       "%0 = nn.conv2d(%x, %w, channels=4, kernel_size=[3, 3], data_layout=\"NHWC\", kernel_layout=\"HWIO\");\n  %1 = sigmoid(%0);\n  multiply(%0, %1)"},
      {"%x: Tensor[(1, 2, 4, 4), float32], %w: Tensor[(2, 2, 1, 1), float32]",
       "%0 = nn.conv2d(%x, %w, channels=2, kernel_size=[1, 1]);\n  nn.leaky_relu(%0, alpha=0.2f)"},
      {"%x: Tensor[(6), float32]",
       "%0 = nn.leaky_relu(%x);\n  %1 = nn.leaky_relu(%0);\n  %2 = nn.leaky_relu(%1);\n  %3 = nn.leaky_relu(%2);\n  nn.leaky_relu(%3)"},
      {"%x: Tensor[(2, 3, 4), float32], %y: Tensor[(2, 5, 4), float32]",
       "%0 = nn.batch_matmul(%x, %y);\n  %1 = tanh(%0);\n  add(%1, 1f)"},
      // N-d dense with its bias and activation fused as an epilogue (a transformer's projection).
      {"%x: Tensor[(1, 24, 40), float32], %w: Tensor[(16, 40), float32], %b: Tensor[(16), float32]",
       "%0 = nn.dense(%x, %w, units=16);\n  %1 = add(%0, %b);\n  %2 = nn.relu(%1);\n  multiply(%2, 0.5f)"},
      {"%x: Tensor[(2, 3, 8), float32], %w: Tensor[(8, 5), float32]", "%0 = nn.matmul(%x, %w);\n  sigmoid(%0)"},
      // split and its projections inside one group: the pieces are scratch buffers.
      {"%x: Tensor[(2, 6), float32]", "%0 = exp(%x);\n  %1 = split(%0, indices_or_sections=[2, 5], axis=1);\n  %2 = %1.0;\n  %3 = %1.2;\n  add(%2, %3)"},
      {"%x: Tensor[(4, 3), float32]", "%0 = split(%x, indices_or_sections=2);\n  %1 = %0.1;\n  %2 = negative(%1);\n  multiply(%2, %0.0)"},
      // A split at the group's root (its pieces feed convolutions): one output parameter per piece.
      {"%x: Tensor[(1, 4, 5, 5), float32], %w: Tensor[(2, 2, 3, 3), float32]",
       "%0 = exp(%x);\n  %1 = split(%0, indices_or_sections=2, axis=1);\n  %2 = nn.conv2d(%1.0, %w, padding=[1, 1, 1, 1], channels=2, kernel_size=[3, 3]);\n"
       "  %3 = nn.conv2d(%1.1, %w, padding=[1, 1, 1, 1], channels=2, kernel_size=[3, 3]);\n  (%2, %3)"},
      // Integer power is a loop nest of its own: neither inlined into its consumer nor into a convolution's epilogue.
      {"%x: Tensor[(3, 4), int32]", "%0 = add(%x, 1);\n  %1 = power(%0, 3);\n  subtract(%1, %0)"},
      {"%x: Tensor[(3, 5), float32], %i: Tensor[(2, 2), int32]", "%0 = take(%x, %i, axis=1, mode=\"wrap\");\n  nn.relu(%0)"},
      // A transposed convolution finishes each element through its elementwise epilogue.
      {"%x: Tensor[(1, 2, 4, 4), float32], %w: Tensor[(2, 3, 3, 3), float32], %b: Tensor[(3), float32]",
       "%0 = nn.conv2d_transpose(%x, %w, channels=3, kernel_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]);\n"
       "  %1 = nn.bias_add(%0, %b);\n  %2 = nn.relu(%1);\n  multiply(%2, 0.5f)"},
  }));
  INFO(body);
  IRModule mod = parse(std::string("#[version = \"0.0.5\"]\ndef @main(") + params + ") {\n  " + body + "\n}\n");
  PipelineRun r;
  IRModule fused = r.run("InferType,FuseOps", mod);
  REQUIRE_FALSE(fusedFunctions(mainOf(fused)).empty());
  IRModule out = r.run("LegalizeOps", fused);
  CHECK(remainingOpCalls(mainOf(out)) == 0);
  bool half = std::string(params).find("float16") != std::string::npos;
  requireSameNumbers(compareModules(mod, out, 11), half ? 2e-3 : 1e-6);
  requirePrintRoundTrip(out);
}

TEST_CASE("LegalizeOps: a lone op named like a C math function gets a kernel name libm does not use", "[passes][legalize]") {
  // A float64 exp kernel called `exp` would be called by its own llvm.exp
  // (the JIT resolves libm's `exp` to it): the ONNX conformance host path
  // crashed on ReduceLogSumExp that way.
  auto [op, name] = GENERATE(table<const char*, const char*>({{"exp", "exp_1"}, {"log", "log_1"}, {"tanh", "tanh_1"}, {"sqrt", "sqrt_1"}, {"floor", "floor_1"}, {"negative", "negative"}}));
  OpCase c{op, "%x: Tensor[(4), float64]", ""};
  std::string body = std::string(op) + "(%x)";
  c.body = body.c_str();
  IRModule out = PipelineRun().run("InferType,LegalizeOps", parse(moduleText(c)));
  std::vector<std::string> names;
  for (const auto& [n, fn] : out->functions)
    if (as<PrimFuncNode>(fn)) names.push_back(n);
  CHECK(names == std::vector<std::string>{name});
}

TEST_CASE("LegalizeOps: groups lifted by LambdaLifting lower whole and the lifted functions go", "[passes][legalize]") {
  IRModule mod = exampleModel("examples/cnn_block.relay");
  PipelineRun r;
  IRModule lifted = r.run("InferType,SimplifyInference,FuseOps,LambdaLifting", mod);
  size_t groups = 0;
  for (const auto& [name, fn] : lifted->functions)
    if (const auto* f = as<FunctionNode>(fn); f && opt_util::isPrimitive(*f)) ++groups;
  REQUIRE(groups > 1);
  IRModule out = r.run("LegalizeOps", lifted);
  // One PrimFunc per group (named for the fused ops), and no Primitive function left behind.
  size_t fusedPrimFuncs = 0;
  for (const auto& [name, fn] : out->functions) {
    INFO(name);
    if (const auto* f = as<FunctionNode>(fn)) CHECK_FALSE(opt_util::isPrimitive(*f));
    fusedPrimFuncs += fn->kind == ExprKind::PrimFunc && name.rfind("fused_", 0) == 0;
  }
  CHECK(fusedPrimFuncs == groups);
  CHECK(out->lookup("fused_nn_conv2d_nn_bias_add_multiply_add_multiply"));
  CHECK(remainingOpCalls(mainOf(out)) == 0);
  requireSameNumbers(compareModules(mod, out, 5), 1e-5);
  CHECK(checkWellFormed(out).empty());
}
