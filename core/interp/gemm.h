// Internal: the matrix-multiply core behind conv2d, conv2d_transpose, dense,
// matmul and batch_matmul.
#pragma once

#include <cstdint>

namespace passlab::kernels {

/// C = A * B, or C += A * B when `accumulate`. Element (i, k) of A is
/// a[i * rowStrideA + k * colStrideA]; element (k, j) of B is
/// b[k * rowStrideB + j * colStrideB]; C is row-major with leading dimension ldc.
///
/// Every C element is summed over k in increasing order starting from 0 (or
/// from the old C), exactly like the naive triple loop: cache blocking packs
/// panels and keeps a register tile, but never reassociates, so results are
/// bit-identical to `for k: c += a * b` (the build uses -ffp-contract=off).
///
/// Acc is float (float16/float32 data), double (float64) or uint64_t (every
/// integer dtype: two's-complement wrap-around is exact in unsigned arithmetic).
template <class Acc>
void gemm(int64_t M, int64_t N, int64_t K, const Acc* a, int64_t rowStrideA, int64_t colStrideA, const Acc* b,
          int64_t rowStrideB, int64_t colStrideB, Acc* c, int64_t ldc, bool accumulate = false);

/// out[m][n] = sum_k x[m][k] * w[n][k] with x [M, K] and w [N, K] row-major:
/// dense's layout. Few rows (M < 4) use a dot-product kernel that sums k in 8
/// interleaved partial sums combined in a fixed tree (deterministic, but not
/// the naive order); more rows go through gemm.
template <class Acc>
void gemmTransposedB(int64_t M, int64_t N, int64_t K, const Acc* x, const Acc* w, Acc* out);

}  // namespace passlab::kernels
