//===- Transpose.cpp - writing a tile transposed --------------------------===//

#include "Transpose.h"

#include "RuntimeBuffers.h"
#include "VectorLevel.h"

#include <algorithm>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define ASCENDPREC_X86_TRANSPOSE 1
#endif

using namespace ascendprec::runtime::detail;

namespace {

/// The block [i0, i1) x [j0, j1) element by element, `T` an unsigned type of
/// the element's size.
template <typename T>
void copyScalar(const T *source, int64_t sourceStride, int64_t i0, int64_t i1, int64_t j0,
                int64_t j1, T *target, int64_t targetStride) {
  for (int64_t j = j0; j < j1; ++j) {
    T *run = target + j * targetStride;
    for (int64_t i = i0; i < i1; ++i)
      std::memcpy(&run[i], &source[i * sourceStride + j], sizeof(T));
  }
}

#if defined(ASCENDPREC_X86_TRANSPOSE)
/// The 8 x 8 block of 32-bit elements at `source` transposed into c[8].
__attribute__((target("avx2"), always_inline)) inline void
transpose8x8(const uint32_t *source, int64_t sourceStride, __m256 c[8]) {
  __m256 r[8];
  for (int k = 0; k < 8; ++k)
    r[k] = _mm256_loadu_ps(reinterpret_cast<const float *>(source + k * sourceStride));
  __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
  __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
  __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
  __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
  __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
  __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
  __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
  __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  c[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
  c[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
  c[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
  c[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
  c[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
  c[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
  c[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
  c[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

/// The 16 x 16 block r[row] transposed in place (r[j] becomes column j).
__attribute__((target("avx512f"), always_inline)) inline void transpose16x16(__m512 r[16]) {
  __m512 t[16];
  for (int k = 0; k < 16; k += 2) {
    t[k] = _mm512_unpacklo_ps(r[k], r[k + 1]);     // per 128 bits: a0 b0 a1 b1
    t[k + 1] = _mm512_unpackhi_ps(r[k], r[k + 1]); // a2 b2 a3 b3
  }
  for (int k = 0; k < 16; k += 4) {
    r[k] = _mm512_shuffle_ps(t[k], t[k + 2], 0x44);     // a0 b0 c0 d0
    r[k + 1] = _mm512_shuffle_ps(t[k], t[k + 2], 0xEE); // a1 b1 c1 d1
    r[k + 2] = _mm512_shuffle_ps(t[k + 1], t[k + 3], 0x44);
    r[k + 3] = _mm512_shuffle_ps(t[k + 1], t[k + 3], 0xEE);
  }
  // r[4q + c] holds rows 4q..4q+3 of columns c, c + 4, c + 8, c + 12.
  for (int c = 0; c < 4; ++c) {
    t[c] = _mm512_shuffle_f32x4(r[c], r[4 + c], 0x88);     // columns c, c + 8
    t[4 + c] = _mm512_shuffle_f32x4(r[c], r[4 + c], 0xDD); // c + 4, c + 12
    t[8 + c] = _mm512_shuffle_f32x4(r[8 + c], r[12 + c], 0x88);
    t[12 + c] = _mm512_shuffle_f32x4(r[8 + c], r[12 + c], 0xDD);
  }
  for (int c = 0; c < 8; ++c) {
    r[c] = _mm512_shuffle_f32x4(t[c], t[8 + c], 0x88);     // column c
    r[8 + c] = _mm512_shuffle_f32x4(t[c], t[8 + c], 0xDD); // column 8 + c
  }
}

/// Fewer than 16 rows of 32-bit elements, in 16 x 16 blocks through
/// AVX-512 registers under masks (element by element, the 10 x 192 sums of
/// a depthwise group took a quarter of its convolution's time).
__attribute__((target("avx512f"))) void copyFewRowsTransposed32(const uint32_t *source,
                                                               int64_t sourceStride,
                                                               int64_t rows, int64_t cols,
                                                               uint32_t *target,
                                                               int64_t targetStride) {
  auto live = static_cast<__mmask16>((uint32_t{1} << rows) - 1);
  for (int64_t j = 0; j < cols; j += 16) {
    int64_t width = std::min<int64_t>(16, cols - j);
    auto columns = static_cast<__mmask16>((uint32_t{1} << width) - 1);
    __m512 r[16];
    for (int64_t i = 0; i < 16; ++i)
      r[i] = i < rows ? _mm512_maskz_loadu_ps(columns, source + i * sourceStride + j)
                      : _mm512_setzero_ps();
    transpose16x16(r);
    for (int64_t l = 0; l < width; ++l)
      _mm512_mask_storeu_ps(target + (j + l) * targetStride, live, r[l]);
  }
}

/// 16-bit elements (fp16, bf16, int16) in 16 x 16 blocks: each row widened
/// to 32 bits, transposed as 32-bit elements and narrowed back (moves change
/// no bit), the edges under masks. Element by element, the transposes of
/// fp16 tiles took 6% of PP-OCR's classifier under force_fp16.
__attribute__((target("avx512f,avx512bw,avx512vl"))) void
copyTransposed16(const uint16_t *source, int64_t sourceStride, int64_t rows, int64_t cols,
                 uint16_t *target, int64_t targetStride) {
  for (int64_t i = 0; i < rows; i += 16) {
    int64_t height = std::min<int64_t>(16, rows - i);
    auto live = static_cast<__mmask16>((uint32_t{1} << height) - 1);
    for (int64_t j = 0; j < cols; j += 16) {
      int64_t width = std::min<int64_t>(16, cols - j);
      auto columns = static_cast<__mmask16>((uint32_t{1} << width) - 1);
      __m512 r[16];
      for (int64_t k = 0; k < 16; ++k) {
        __m256i row = k < height ? _mm256_maskz_loadu_epi16(
                                       columns, source + (i + k) * sourceStride + j)
                                 : _mm256_setzero_si256();
        r[k] = _mm512_castsi512_ps(_mm512_cvtepu16_epi32(row));
      }
      transpose16x16(r);
      for (int64_t l = 0; l < width; ++l)
        _mm256_mask_storeu_epi16(target + (j + l) * targetStride + i, live,
                                 _mm512_cvtepi32_epi16(_mm512_castps_si512(r[l])));
    }
  }
}

/// 16 x 8 blocks of 32-bit elements through AVX registers: each column of a
/// block is 64 bytes, a whole cache line, written with streaming stores
/// when asked and the target is aligned (a 100 MB activation does not stay
/// in cache for the next kernel anyway), so the line is not read first.
__attribute__((target("avx2"))) void copyTransposed32(const uint32_t *source,
                                                      int64_t sourceStride, int64_t rows,
                                                      int64_t cols, uint32_t *target,
                                                      int64_t targetStride, bool streaming) {
  int64_t fullRows = rows - rows % 16, fullCols = cols - cols % 8;
  bool aligned = streaming && reinterpret_cast<uintptr_t>(target) % 32 == 0 &&
                 targetStride % 8 == 0;
  for (int64_t i = 0; i < fullRows; i += 16) {
    for (int64_t j = 0; j < fullCols; j += 8) {
      __m256 top[8], bottom[8];
      transpose8x8(source + i * sourceStride + j, sourceStride, top);
      transpose8x8(source + (i + 8) * sourceStride + j, sourceStride, bottom);
      for (int k = 0; k < 8; ++k) {
        auto *run = reinterpret_cast<float *>(target + (j + k) * targetStride + i);
        if (aligned) {
          _mm256_stream_ps(run, top[k]);
          _mm256_stream_ps(run + 8, bottom[k]);
        } else {
          _mm256_storeu_ps(run, top[k]);
          _mm256_storeu_ps(run + 8, bottom[k]);
        }
      }
    }
  }
  // Streaming stores are weakly ordered: fenced before the data is shared.
  if (aligned)
    _mm_sfence();
  // The right and bottom edges (a bit pattern copy: moves change no bit).
  copyScalar(source, sourceStride, 0, fullRows, fullCols, cols, target, targetStride);
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  if (avx512 && fullRows < rows)
    copyFewRowsTransposed32(source + fullRows * sourceStride, sourceStride, rows - fullRows, cols,
                            target + fullRows, targetStride);
  else
    copyScalar(source, sourceStride, fullRows, rows, 0, cols, target, targetStride);
}
#endif

} // namespace

void ascendprec::runtime::detail::copyTransposed(const uint8_t *source, int64_t sourceStride,
                                                 int64_t rows, int64_t cols, uint8_t *target,
                                                 int64_t targetStride, size_t bytes,
                                                 bool streaming) {
  if (rows <= 0 || cols <= 0)
    return;
#if defined(ASCENDPREC_X86_TRANSPOSE)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (bytes == 4 && avx2)
    return copyTransposed32(reinterpret_cast<const uint32_t *>(source), sourceStride, rows, cols,
                            reinterpret_cast<uint32_t *>(target), targetStride, streaming);
  if (bytes == 2 && vectorLevel() == VectorLevel::Avx512Fma)
    return copyTransposed16(reinterpret_cast<const uint16_t *>(source), sourceStride, rows, cols,
                            reinterpret_cast<uint16_t *>(target), targetStride);
#else
  (void)streaming;
#endif
  // Others in 16-row blocks, so that a block's rows stay in L1 while every
  // column of it is written.
  forElementSize(bytes, [&](auto element) {
    using T = decltype(element);
    const auto *from = reinterpret_cast<const T *>(source);
    auto *to = reinterpret_cast<T *>(target);
    for (int64_t i = 0; i < rows; i += 16)
      copyScalar(from, sourceStride, i, std::min(rows, i + 16), 0, cols, to, targetStride);
  });
}
