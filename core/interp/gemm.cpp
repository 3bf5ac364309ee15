// Cache-blocked GEMM in the BLIS style: B is packed into KC x NR panels, A
// into MR x KC panels, and a register-tiled micro-kernel computes an MR x NR
// block of C whose inner loop the compiler vectorizes. Built with -O3 (see
// CMakeLists.txt); no -ffast-math, so every product and sum is IEEE.
#include "core/interp/gemm.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace passlab::kernels {

namespace {

/// Register tile: MR rows x NR columns of C held in accumulators. NR spans two
/// SSE vectors for float, so the 4x8 tile is 8 vector accumulators.
template <class Acc>
struct Tile {
  static constexpr int64_t MR = 4;
  static constexpr int64_t NR = sizeof(Acc) == 4 ? 8 : 4;
};

// Block sizes: a KC x NC panel of packed B (1 MiB for float) stays in L2, an
// MR x KC sliver of A and a KC x NR sliver of B in L1.
constexpr int64_t KC = 256;
constexpr int64_t MC = 64;
constexpr int64_t NC = 1024;

/// C[MR x NR] (leading dimension ldc) = C_init + sum over kc of a[k] (x) b[k].
template <class Acc>
void microKernel(int64_t kc, const Acc* __restrict a, const Acc* __restrict b, Acc* __restrict c, int64_t ldc, bool load) {
  constexpr int64_t MR = Tile<Acc>::MR, NR = Tile<Acc>::NR;
  Acc acc[MR][NR];
  for (int64_t r = 0; r < MR; ++r)
    for (int64_t j = 0; j < NR; ++j) acc[r][j] = load ? c[r * ldc + j] : Acc(0);
  for (int64_t k = 0; k < kc; ++k) {
    const Acc* bk = b + k * NR;
    const Acc* ak = a + k * MR;
    for (int64_t r = 0; r < MR; ++r) {
      Acc av = ak[r];
      for (int64_t j = 0; j < NR; ++j) acc[r][j] += av * bk[j];
    }
  }
  for (int64_t r = 0; r < MR; ++r)
    for (int64_t j = 0; j < NR; ++j) c[r * ldc + j] = acc[r][j];
}

}  // namespace

template <class Acc>
void gemm(int64_t M, int64_t N, int64_t K, const Acc* a, int64_t rsA, int64_t csA, const Acc* b, int64_t rsB, int64_t csB,
          Acc* c, int64_t ldc, bool accumulate) {
  constexpr int64_t MR = Tile<Acc>::MR, NR = Tile<Acc>::NR;
  if (M <= 0 || N <= 0) return;
  if (K <= 0) {
    if (!accumulate)
      for (int64_t i = 0; i < M; ++i) std::fill(c + i * ldc, c + i * ldc + N, Acc(0));
    return;
  }
  // Packing buffers sized for this product and reused across calls: small
  // convolutions call gemm thousands of times and must not pay for a
  // megabyte of zero-filled allocation each time. (No call nests in another.)
  thread_local std::vector<Acc> packedAStorage, packedBStorage;
  int64_t kcMax = std::min(KC, K);
  size_t needA = static_cast<size_t>(std::min(MC, (M + MR - 1) / MR * MR) * kcMax);
  size_t needB = static_cast<size_t>((std::min(NC, N) + NR - 1) / NR * NR * kcMax);
  if (packedAStorage.size() < needA) packedAStorage.resize(needA);
  if (packedBStorage.size() < needB) packedBStorage.resize(needB);
  Acc* packedA = packedAStorage.data();
  Acc* packedB = packedBStorage.data();
  Acc edge[MR * NR];
  for (int64_t jc = 0; jc < N; jc += NC) {
    int64_t nc = std::min(NC, N - jc);
    for (int64_t pc = 0; pc < K; pc += KC) {
      int64_t kc = std::min(KC, K - pc);
      bool load = accumulate || pc > 0;  // continue the running sum in k order
      // Pack B[pc:pc+kc, jc:jc+nc] into column panels of NR (zero-padded).
      for (int64_t jr = 0; jr < nc; jr += NR) {
        Acc* dst = packedB + jr * kc;
        int64_t cols = std::min(NR, nc - jr);
        for (int64_t k = 0; k < kc; ++k) {
          const Acc* src = b + (pc + k) * rsB + (jc + jr) * csB;
          for (int64_t j = 0; j < NR; ++j) dst[k * NR + j] = j < cols ? src[j * csB] : Acc(0);
        }
      }
      for (int64_t ic = 0; ic < M; ic += MC) {
        int64_t mc = std::min(MC, M - ic);
        // Pack A[ic:ic+mc, pc:pc+kc] into row panels of MR (zero-padded).
        for (int64_t ir = 0; ir < mc; ir += MR) {
          Acc* dst = packedA + ir * kc;
          int64_t rows = std::min(MR, mc - ir);
          for (int64_t k = 0; k < kc; ++k) {
            const Acc* src = a + (ic + ir) * rsA + (pc + k) * csA;
            for (int64_t r = 0; r < MR; ++r) dst[k * MR + r] = r < rows ? src[r * rsA] : Acc(0);
          }
        }
        for (int64_t jr = 0; jr < nc; jr += NR) {
          int64_t cols = std::min(NR, nc - jr);
          for (int64_t ir = 0; ir < mc; ir += MR) {
            int64_t rows = std::min(MR, mc - ir);
            const Acc* pa = packedA + ir * kc;
            const Acc* pb = packedB + jr * kc;
            Acc* ct = c + (ic + ir) * ldc + jc + jr;
            if (rows == MR && cols == NR) {
              microKernel(kc, pa, pb, ct, ldc, load);
              continue;
            }
            // Partial tile at the matrix edge: run the full tile on a scratch copy.
            for (int64_t r = 0; r < MR; ++r)
              for (int64_t j = 0; j < NR; ++j) edge[r * NR + j] = (load && r < rows && j < cols) ? ct[r * ldc + j] : Acc(0);
            microKernel(kc, pa, pb, edge, NR, true);
            for (int64_t r = 0; r < rows; ++r)
              for (int64_t j = 0; j < cols; ++j) ct[r * ldc + j] = edge[r * NR + j];
          }
        }
      }
    }
  }
}

template <class Acc>
void gemmTransposedB(int64_t M, int64_t N, int64_t K, const Acc* x, const Acc* w, Acc* out) {
  if (M >= Tile<Acc>::MR) {
    // B(k, n) = w[n][k]: packing reads the transposed view.
    gemm<Acc>(M, N, K, x, K, 1, w, 1, K, out, N, false);
    return;
  }
  // Few rows: packing all of w would cost as much as the products, so take
  // dot products directly, four weight rows at a time sharing each x load.
  constexpr int64_t kLanes = 8;
  constexpr int64_t kRows = 4;
  auto combine = [](const Acc* lane) {
    return ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
  };
  for (int64_t m = 0; m < M; ++m) {
    const Acc* __restrict xr = x + m * K;
    int64_t n = 0;
    for (; n + kRows <= N; n += kRows) {
      Acc acc[kRows][kLanes] = {};
      const Acc* __restrict wr = w + n * K;
      int64_t k = 0;
      for (; k + kLanes <= K; k += kLanes)
        for (int64_t r = 0; r < kRows; ++r)
          for (int64_t l = 0; l < kLanes; ++l) acc[r][l] += xr[k + l] * wr[r * K + k + l];
      for (int64_t r = 0; r < kRows; ++r) {
        Acc sum = combine(acc[r]);
        for (int64_t t = k; t < K; ++t) sum += xr[t] * wr[r * K + t];
        out[m * N + n + r] = sum;
      }
    }
    for (; n < N; ++n) {
      Acc acc[kLanes] = {};
      const Acc* __restrict wr = w + n * K;
      int64_t k = 0;
      for (; k + kLanes <= K; k += kLanes)
        for (int64_t l = 0; l < kLanes; ++l) acc[l] += xr[k + l] * wr[k + l];
      Acc sum = combine(acc);
      for (int64_t t = k; t < K; ++t) sum += xr[t] * wr[t];
      out[m * N + n] = sum;
    }
  }
}

#define PASSLAB_INSTANTIATE_GEMM(Acc)                                                                                   \
  template void gemm<Acc>(int64_t, int64_t, int64_t, const Acc*, int64_t, int64_t, const Acc*, int64_t, int64_t, Acc*, \
                          int64_t, bool);                                                                              \
  template void gemmTransposedB<Acc>(int64_t, int64_t, int64_t, const Acc*, const Acc*, Acc*);
PASSLAB_INSTANTIATE_GEMM(float)
PASSLAB_INSTANTIATE_GEMM(double)
PASSLAB_INSTANTIATE_GEMM(uint64_t)
#undef PASSLAB_INSTANTIATE_GEMM

}  // namespace passlab::kernels
