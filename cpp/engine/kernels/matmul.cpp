#include "engine/kernels/matmul.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <vector>

#include "engine/core/half.h"
#include "engine/kernels/parallel.h"

#ifdef ENGINE_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace engine::kernels {

// Blocked i-k-j order: the innermost loop streams a row of B into a row of C, which vectorises,
// and the K and N blocks keep the working set of B in cache.
template <typename T>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, const T* B, T* C) {
  std::fill(C, C + M * N, T(0));
  constexpr int64_t KB = 256, NB = 512;
  for (int64_t k0 = 0; k0 < K; k0 += KB) {
    const int64_t k1 = std::min(K, k0 + KB);
    for (int64_t n0 = 0; n0 < N; n0 += NB) {
      const int64_t n1 = std::min(N, n0 + NB);
      for (int64_t i = 0; i < M; ++i) {
        T* c = C + i * N;
        const T* a = A + i * K;
        for (int64_t k = k0; k < k1; ++k) {
          const T av = a[k];
          const T* b = B + k * N;
          if constexpr (std::is_integral_v<T>) {
            // Integer products wrap like PyTorch's; unsigned arithmetic keeps that defined.
            // (uint32 for the narrow types, whose products would otherwise promote to a signed int)
            using U = std::make_unsigned_t<std::conditional_t<(sizeof(T) < 4), int32_t, T>>;
            for (int64_t j = n0; j < n1; ++j) c[j] = T(U(c[j]) + U(av) * U(b[j]));
          } else {
            for (int64_t j = n0; j < n1; ++j) c[j] += av * b[j];
          }
        }
      }
    }
  }
}

template void gemm<float>(int64_t, int64_t, int64_t, const float*, const float*, float*);
template void gemm<double>(int64_t, int64_t, int64_t, const double*, const double*, double*);
template void gemm<int64_t>(int64_t, int64_t, int64_t, const int64_t*, const int64_t*, int64_t*);
template void gemm<int32_t>(int64_t, int64_t, int64_t, const int32_t*, const int32_t*, int32_t*);
template void gemm<int16_t>(int64_t, int64_t, int64_t, const int16_t*, const int16_t*, int16_t*);
template void gemm<int8_t>(int64_t, int64_t, int64_t, const int8_t*, const int8_t*, int8_t*);
template void gemm<uint8_t>(int64_t, int64_t, int64_t, const uint8_t*, const uint8_t*, uint8_t*);

namespace {

#ifdef ENGINE_HAVE_OPENBLAS
// Products with fewer multiply-adds than this run on the calling thread alone; larger ones are
// split between engine's threads. A 64 x 64 x 64 product (2^18) gains from a second thread that is
// awake (150 -> 200 GFLOP/s on this kind of VM), but on a loaded machine a worker that claims its
// block and is then preempted makes the caller wait a time slice for 1.3 us of work (the 64 row of
// bench/run.py at load 7: 128 -> 65 GFLOP/s); from 2^20 (a 100^3 product, 7 us on one thread) the
// gain outweighs that risk. ENGINE_SMALL_GEMM overrides it.
int64_t small_gemm_limit() {
  static const int64_t limit = [] {
    if (const char* env = std::getenv("ENGINE_SMALL_GEMM")) return static_cast<int64_t>(std::atoll(env));
    return int64_t(1) << 20;
  }();
  return limit;
}

// OpenBLAS runs every product on one thread: engine's pool splits a large product into blocks
// of C and each thread runs its block through its own OpenBLAS call. OpenBLAS's own threads wait
// for each other at every packed panel: on this kind of 2-core machine they reached 220-270
// GFLOP/s on 256-512 products where the split reaches 260-300, and a worker the OS has preempted
// stalls the whole call (with the pool, the caller takes the blocks a sleeping worker has not
// claimed). Between products OpenBLAS goes back to engine's thread count, for its LAPACK routines
// (engine.set_num_threads governs them, as torch.set_num_threads does). The count is process-wide:
// it is lowered when the first product outside a parallel region starts and restored when the
// last one ends, so concurrent callers (Python threads, the interpreter lock released) never see
// it raised under them. The last value set is remembered: setting it again costs a comparison.
std::atomic<int> g_blas_threads{0};

void set_blas_threads(int want) {
  if (g_blas_threads.load(std::memory_order_relaxed) != want) {
    scipy_openblas_set_num_threads(want);
    g_blas_threads.store(want, std::memory_order_relaxed);
  }
}

std::mutex g_products_mu;
int g_products_running = 0;  // products outside a parallel region, under g_products_mu

template <typename T>
void blas_gemm(int64_t M, int64_t N, int64_t K, const T* A, bool ta, int64_t lda, const T* B, bool tb, int64_t ldb,
               T* C, int64_t ldc, bool accumulate) {
  const auto op_a = ta ? CblasTrans : CblasNoTrans, op_b = tb ? CblasTrans : CblasNoTrans;
  const int m = int(M), n = int(N), k = int(K), la = int(std::max<int64_t>(lda, 1)), lb = int(std::max<int64_t>(ldb, 1));
  if constexpr (std::is_same_v<T, float>) {
    scipy_cblas_sgemm(CblasRowMajor, op_a, op_b, m, n, k, 1.0f, A, la, B, lb, accumulate ? 1.0f : 0.0f, C, int(ldc));
  } else {
    scipy_cblas_dgemm(CblasRowMajor, op_a, op_b, m, n, k, 1.0, A, la, B, lb, accumulate ? 1.0 : 0.0, C, int(ldc));
  }
}

// OpenBLAS's SkylakeX-family cores carry "small matrix" sgemm kernels that read the operands where
// they lie (no packing into panels, no separate pass zeroing C for beta = 0). OpenBLAS takes them
// for calls of at most 10^6 multiply-adds (its permit rule in sgemm_small_kernel_permit_skylakex;
// with B transposed, in row-major terms, only for C tiles of at most 1200 elements and K >= 32).
// Cutting a product into tiles of C that each stay under those bounds gets them for larger
// products too. Measured on this kind of VM (one thread, CPU time, caches cold as between the
// steps of a training loop), the tiles take 0.62-0.87 of the packed call's time on flat products
// and small inner dimensions: the MLP's 64 x 784 @ 784 x 256 (0.74: packing the 784 x 256 operand
// for only 64 rows is what the packed call spends its time on), its weight gradient 784 x 64 @
// 64 x 256 (0.81-0.96), 256^3 (0.87-0.97), 128^3 (0.7-0.8). They lose where many row tiles re-read
// a wide, deep B (512^3: 1.06-1.33; 1024^2 x 784: 3.3; 128 x 512 @ 512 x 1024: 1.6-1.7), so only
// the measured shapes below take them. With B transposed (nn.Linear's x @ W.t()), 32 x 32 tiles
// took 0.51-0.84 of the packed call's time (2 threads) where C has at most 2^17 elements and
// lost beyond (512^3: 1.18). ENGINE_GEMM_TILES=0 turns them off, =1 on for any core (the tests
// run both ways).
//
// How the threads share the tiles: each takes one contiguous part of the product's largest
// operand, as an elementwise op on that tensor is split (contiguous ranges, strided_loop.cpp). A
// training step then finds a weight, its gradient and the optimizer's temporaries in the cache of
// the core that last wrote them. Splitting the columns of C instead made the MLP step's SGD update
// (an 800 KB weight) fetch half its lines from the other core: 390 -> 345 us a step. When the
// largest operand is A (not transposed) or C, threads take whole rows of C; when it is B stored
// transposed, whole columns of C (rows of the stored B); when it is B (or a transposed A), the
// inner dimension is cut in two fixed halves whose products are summed after.
enum class TileSplit { Rows, Cols, Inner };

struct Tiles {
  int64_t rows = 0, cols = 0;  // 0: one packed call
  TileSplit split = TileSplit::Rows;
};

constexpr int64_t kInnerParts = 2;  // fixed, so the bits do not depend on the thread count

bool direct_kernels_available() {
  static const bool available = [] {
    if (const char* env = std::getenv("ENGINE_GEMM_TILES")) return std::atoi(env) != 0;
    const char* core = scipy_openblas_get_corename();
    if (core == nullptr) return false;
    for (const char* name : {"SkylakeX", "Cooperlake", "SapphireRapids"}) {
      if (std::strcmp(core, name) == 0) return true;
    }
    return false;
  }();
  return available;
}

int64_t round_up(int64_t n, int64_t multiple) { return (n + multiple - 1) / multiple * multiple; }

// Row tiles of at most `most` rows (a multiple of 4), as many as a multiple of 4 and all but the
// last of one size, so that whole-row parts balance on 1, 2 or 4 threads whatever M is.
int64_t balanced_rows(int64_t M, int64_t most) {
  if (most >= M) return M;
  const int64_t count = round_up((M + most - 1) / most, 4);
  const int64_t even = round_up((M + count - 1) / count, 4);
  // Rounding the rows up to 4 can leave a count that is not a multiple of 4 (256 rows: 12 tiles of
  // 24 are 11 tiles); smaller tiles may restore one (16 tiles of 16), down to half the size.
  for (int64_t rows = even; rows * 2 >= even; rows -= 4) {
    if (((M + rows - 1) / rows) % 4 == 0) return std::min(rows, M);
  }
  return std::min(even, M);
}

// The length of each inner part but the last (a multiple of 16, the kernels' register tile).
int64_t inner_length(int64_t K) { return round_up((K + kInnerParts - 1) / kInnerParts, 16); }

TileSplit split_for(int64_t M, int64_t N, int64_t K, bool ta, bool tb) {
  const double a = double(M) * double(K), b = double(K) * double(N), c = double(M) * double(N);
  if (c >= a && c >= b) return TileSplit::Rows;
  if (a >= b) return ta && K >= 64 ? TileSplit::Inner : TileSplit::Rows;
  if (tb) return TileSplit::Cols;
  return K >= 64 ? TileSplit::Inner : TileSplit::Rows;
}

// B's rows must start on 64-byte lines: the small kernels load B a cache line at a time, and with
// the 16-byte alignment of a NumPy buffer the tiles ran 10-25 % slower than the packed call.
template <typename T>
Tiles direct_tiles(int64_t M, int64_t N, int64_t K, bool ta, const T* B, bool tb, int64_t ldb) {
  constexpr int64_t kDirectLimit = 1000000;  // OpenBLAS's M * N * K bound for its small kernels
  if (!std::is_same_v<T, float> || K == 0 || !direct_kernels_available()) return {};
  const double macs = static_cast<double>(M) * static_cast<double>(N) * static_cast<double>(K);
  if (macs <= static_cast<double>(kDirectLimit)) return {};  // OpenBLAS chooses for itself
  Tiles t;
  if (tb) {
    // Its transposed-B kernel: C tiles of at most 1200 elements, K from 32.
    constexpr int64_t kSide = 32;
    if (ta || K < 32 || M * N > (int64_t(1) << 17) || kSide * kSide * K > kDirectLimit) return {};
    t.split = split_for(M, N, K, ta, tb);
    t.rows = std::min(M, kSide);
    t.cols = std::min(N, kSide);
    return t;
  }
  if (reinterpret_cast<std::uintptr_t>(B) % 64 != 0 || ldb % 16 != 0) return {};
  const bool flat = M <= 128 && N <= 256 && K <= 800;     // few rows share each column band of B
  const bool shallow = K <= 64 && M * N <= (int64_t(1) << 19);
  const bool small_cube = M <= 256 && N <= 256 && K <= 256;
  if (!(flat || shallow || small_cube)) return {};
  t.split = split_for(M, N, K, ta, tb);
  const int64_t depth = t.split == TileSplit::Inner ? inner_length(K) : K;
  t.cols = std::min<int64_t>(N, 128);
  t.rows = std::max<int64_t>(1, kDirectLimit / depth / t.cols);
  if (t.rows >= 4) t.rows = t.rows / 4 * 4;
  t.rows = t.split == TileSplit::Rows ? balanced_rows(M, t.rows) : std::min(t.rows, M);
  return t;
}

// The tiles of C in row tiles [r0, r1) and column tiles [c0, c1), a column band's row tiles one
// after another (a band of B read once), one BLAS call each over the inner range [k0, k1).
template <typename T>
void blas_gemm_tiles(int64_t M, int64_t N, const T* A, bool ta, int64_t lda, const T* B, bool tb, int64_t ldb, T* C,
                     bool accumulate, const Tiles& t, int64_t r0, int64_t r1, int64_t c0, int64_t c1, int64_t k0,
                     int64_t k1) {
  const T* a_k = ta ? A + k0 * lda : A + k0;
  const T* b_k = tb ? B + k0 : B + k0 * ldb;
  for (int64_t c = c0; c < c1; ++c) {
    const int64_t col = c * t.cols, cn = std::min(t.cols, N - col);
    const T* b = tb ? b_k + col * ldb : b_k + col;
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t row = r * t.rows, rn = std::min(t.rows, M - row);
      const T* a = ta ? a_k + row : a_k + row * lda;
      blas_gemm<T>(rn, cn, k1 - k0, a, ta, lda, b, tb, ldb, C + row * N + col, N, accumulate);
    }
  }
}

// A tiled product on up to `threads` threads, split as t.split says.
template <typename T>
void blas_gemm_tiled(int64_t M, int64_t N, int64_t K, const T* A, bool ta, int64_t lda, const T* B, bool tb,
                     int64_t ldb, T* C, bool accumulate, const Tiles& t, int64_t threads) {
  const int64_t row_tiles = (M + t.rows - 1) / t.rows, col_tiles = (N + t.cols - 1) / t.cols;
  if (t.split == TileSplit::Rows || t.split == TileSplit::Cols) {
    const bool rows = t.split == TileSplit::Rows;
    const int64_t n = rows ? row_tiles : col_tiles, parts = std::min(threads, n);
    parallel_for_items(parts, [&](int64_t p) {
      const int64_t b = p * n / parts, e = (p + 1) * n / parts;
      blas_gemm_tiles<T>(M, N, A, ta, lda, B, tb, ldb, C, accumulate, t, rows ? b : 0, rows ? e : row_tiles,
                         rows ? 0 : b, rows ? col_tiles : e, 0, K);
    });
    return;
  }
  // Inner: part 0 writes C, the others their own buffer, added to C in order after.
  const int64_t k_len = inner_length(K);
  const int64_t groups = std::max<int64_t>(1, std::min(threads / kInnerParts, col_tiles));
  static thread_local std::vector<T> partial;
  partial.resize(static_cast<size_t>((kInnerParts - 1) * M * N));
  T* extra = partial.data();
  parallel_for_items(kInnerParts * groups, [&](int64_t item) {
    const int64_t part = item / groups, g = item % groups;
    const int64_t k0 = std::min(K, part * k_len), k1 = part + 1 == kInnerParts ? K : std::min(K, k0 + k_len);
    T* c = part == 0 ? C : extra + (part - 1) * M * N;
    blas_gemm_tiles<T>(M, N, A, ta, lda, B, tb, ldb, c, part == 0 && accumulate, t, 0, row_tiles,
                       g * col_tiles / groups, (g + 1) * col_tiles / groups, k0, k1);
  });
  for (int64_t p = 1; p < kInnerParts; ++p) {
    const T* src = extra + (p - 1) * M * N;
    for (int64_t i = 0; i < M * N; ++i) C[i] += src[i];
  }
}

// C (M x N, contiguous) in one block per thread: whole rows when M >= N, else whole columns, so
// that the operand every block reads in full (and packs again) is the smaller one. Blocks are
// multiples of 16 rows or columns (the kernels' register tile), fixed by the thread count alone,
// and each element is computed by one call over the whole inner dimension: the result does not
// depend on which thread ran which block.
template <typename T>
void blas_gemm_split(int64_t M, int64_t N, int64_t K, const T* A, bool ta, int64_t lda, const T* B, bool tb,
                     int64_t ldb, T* C, bool accumulate) {
  OneBlasThreadWhileAlive blas_on_one_thread;
  const int threads = num_threads();
  const bool by_rows = M >= N;
  const int64_t len = by_rows ? M : N;
  const double macs = static_cast<double>(M) * static_cast<double>(N) * static_cast<double>(K);
  const int64_t step = ((len + threads - 1) / threads + 15) / 16 * 16;
  const bool one_thread = threads <= 1 || in_parallel_region() || macs < static_cast<double>(small_gemm_limit());
  if (const Tiles tiles = direct_tiles<T>(M, N, K, ta, B, tb, ldb); tiles.rows > 0) {
    // Each tile is one call whichever thread runs it, so the result does not depend on the count.
    blas_gemm_tiled<T>(M, N, K, A, ta, lda, B, tb, ldb, C, accumulate, tiles, one_thread ? 1 : threads);
    return;
  }
  if (one_thread || step >= len) {
    blas_gemm<T>(M, N, K, A, ta, lda, B, tb, ldb, C, N, accumulate);
    return;
  }
  parallel_for_items((len + step - 1) / step, [&](int64_t part) {
    const int64_t b = part * step, e = std::min(len, b + step);
    if (by_rows) {
      blas_gemm<T>(e - b, N, K, ta ? A + b : A + b * lda, ta, lda, B, tb, ldb, C + b * N, N, accumulate);
    } else {
      blas_gemm<T>(M, e - b, K, A, ta, lda, tb ? B + b * ldb : B + b, tb, ldb, C + b, N, accumulate);
    }
  });
}
#endif

// A row-major copy of op(X) (rows x cols) for the built-in kernel, converted to R.
template <typename R, typename T>
std::vector<R> materialize_as(const T* X, bool trans, int64_t ld, int64_t rows, int64_t cols) {
  std::vector<R> out(static_cast<size_t>(rows * cols));
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) out[i * cols + j] = trans ? X[j * ld + i] : X[i * ld + j];
  }
  return out;
}

template <typename T>
void gemm_builtin(int64_t M, int64_t N, int64_t K, const T* A, bool ta, int64_t lda, const T* B, bool tb,
                  int64_t ldb, T* C) {
  std::vector<T> a, b;
  if (ta || lda != K) {
    a = materialize_as<T>(A, ta, lda, M, K);
    A = a.data();
  }
  if (tb || ldb != N) {
    b = materialize_as<T>(B, tb, ldb, K, N);
    B = b.data();
  }
  gemm<T>(M, N, K, A, B, C);
}

}  // namespace

#ifdef ENGINE_HAVE_OPENBLAS
OneBlasThreadWhileAlive::OneBlasThreadWhileAlive() : outermost_(!in_parallel_region()) {
  if (!outermost_) return;
  std::lock_guard<std::mutex> lock(g_products_mu);
  if (g_products_running++ == 0) set_blas_threads(1);
}

OneBlasThreadWhileAlive::~OneBlasThreadWhileAlive() {
  if (!outermost_) return;
  std::lock_guard<std::mutex> lock(g_products_mu);
  if (--g_products_running == 0) set_blas_threads(num_threads());
}
#else
OneBlasThreadWhileAlive::OneBlasThreadWhileAlive() : outermost_(false) {}
OneBlasThreadWhileAlive::~OneBlasThreadWhileAlive() = default;
#endif

template <typename T>
void gemm_ex(int64_t M, int64_t N, int64_t K, const T* A, bool ta, int64_t lda, const T* B, bool tb, int64_t ldb,
             T* C, bool accumulate) {
  if (M == 0 || N == 0) return;
  if (accumulate && !(std::is_same_v<T, float> || std::is_same_v<T, double>)) {
    // Only the BLAS path adds in place; elsewhere the product goes through a buffer.
    std::vector<T> product(static_cast<size_t>(M * N));
    gemm_ex<T>(M, N, K, A, ta, lda, B, tb, ldb, product.data(), false);
    for (int64_t i = 0; i < M * N; ++i) {
      if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<std::conditional_t<(sizeof(T) < 4), int32_t, T>>;  // wraps, as gemm's
        C[i] = T(U(C[i]) + U(product[i]));
      } else {
        C[i] = T(float(C[i]) + float(product[i]));
      }
    }
    return;
  }
  if constexpr (is_reduced_float_v<T>) {
    // float16 / bfloat16: products accumulate in float32 (as PyTorch's CPU kernels), one rounding
    // per output element.
    std::vector<float> a = materialize_as<float>(A, ta, lda, M, K), b = materialize_as<float>(B, tb, ldb, K, N);
    std::vector<float> c(static_cast<size_t>(M * N));
    gemm_ex<float>(M, N, K, a.data(), false, K, b.data(), false, N, c.data());
    std::copy(c.begin(), c.end(), C);
    return;
  } else {
  ReleaseInterpreterLock unlocked(M * N * K >= (int64_t(1) << 18) ? kReleaseLockNumel : 0);
#ifdef ENGINE_HAVE_OPENBLAS
  // 32-bit BLAS indices: larger problems take the built-in kernel.
  constexpr int64_t kMax = 0x7fffffff;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (M <= kMax && N <= kMax && K <= kMax && lda <= kMax && ldb <= kMax) {
      if (K == 0) {
        if (!accumulate) std::fill(C, C + M * N, T(0));
        return;
      }
      blas_gemm_split<T>(M, N, K, A, ta, lda, B, tb, ldb, C, accumulate);
      return;
    }
  }
#endif
  if (accumulate) {
    std::vector<T> product(static_cast<size_t>(M * N));
    gemm_builtin<T>(M, N, K, A, ta, lda, B, tb, ldb, product.data());
    for (int64_t i = 0; i < M * N; ++i) C[i] += product[i];
    return;
  }
  gemm_builtin<T>(M, N, K, A, ta, lda, B, tb, ldb, C);
  }
}

void one_blas_thread() {
#ifdef ENGINE_HAVE_OPENBLAS
  set_blas_threads(1);
#endif
}

bool have_blas() {
#ifdef ENGINE_HAVE_OPENBLAS
  return true;
#else
  return false;
#endif
}

#define ENGINE_GEMM_EX(T) \
  template void gemm_ex<T>(int64_t, int64_t, int64_t, const T*, bool, int64_t, const T*, bool, int64_t, T*, bool);
ENGINE_GEMM_EX(float)
ENGINE_GEMM_EX(double)
ENGINE_GEMM_EX(int64_t)
ENGINE_GEMM_EX(int32_t)
ENGINE_GEMM_EX(int16_t)
ENGINE_GEMM_EX(int8_t)
ENGINE_GEMM_EX(uint8_t)
ENGINE_GEMM_EX(Half)
ENGINE_GEMM_EX(BFloat16)
#undef ENGINE_GEMM_EX

}  // namespace engine::kernels
