//===- Tiling.h - tile sizes from the SoC's buffer sizes -------------------===//
//
// Plain functions (no MLIR) that choose a kernel's tiles from the buffer
// sizes and core counts of the platform config, so that they can be
// unit-tested against hand-computed figures.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_CONVERSION_ASCENDTOKERNEL_TILING_H
#define ASCENDPREC_CONVERSION_ASCENDTOKERNEL_TILING_H

#include <cstdint>

namespace ascendprec::kernel {

/// The AI Core facts tiling needs (bytes and element counts).
struct CoreFacts {
  int64_t cubeCores = 1, vectorCores = 1;
  int64_t cubeM = 16, cubeN = 16, cubeK = 16;
  int64_t l1 = 0, l0a = 0, l0b = 0, l0c = 0, ub = 0;
  int64_t l2 = 0;                  ///< the chip's L2 cache, bytes
  int64_t ddrRate = 1, l2Rate = 1; ///< bytes per cycle per core
};

/// Cycles to read `total` bytes of a GM buffer of `sourceBytes` on one of
/// `blocks` cores: each core's share of the buffer comes from DDR the first
/// time, re-reads from L2 when what is read between two reads
/// (`reuseBytes`, the whole buffer unless given) fits there (the cost
/// model's rule, docs/cost-model.md).
double gmReadCycles(double total, double sourceBytes, int64_t blocks, const CoreFacts &facts,
                    double reuseBytes = -1);

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
inline int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

/// A matrix multiply `batch x [m,k] x [k,n]` with `inBits`-bit inputs.
struct CubeProblem {
  int64_t batch = 1, m = 1, n = 1, k = 1;
  int64_t inBits = 16;
  int64_t outBits = 16;
  /// UB bytes per output element of a fused epilogue (a UB group's chain
  /// on the output tile); 0 for a plain cube kernel.
  int64_t epilogueBytes = 0;
};

/// Tiles of a cube kernel: an [mTile, nTile] output tile per step, K in
/// steps of kTile; tiles are shared by `blockDim` cores round-robin.
struct CubeTiling {
  int64_t mTile = 0, nTile = 0, kTile = 0;
  int64_t mPadded = 0, nPadded = 0, kPadded = 0; ///< to the fractal, then the tile
  int64_t tiles = 0;   ///< batch * m tiles * n tiles
  int64_t kSteps = 0;  ///< kPadded / kTile
  int64_t blockDim = 0;
  /// K elements per fractal for the input width: 16 for fp16, 32 for int8.
  int64_t kFractal = 0;
  /// The estimate the choice minimised, cycles of the busiest core.
  double cycles = 0;
  /// Rows of output tiles walked together: the tile loop goes down `band`
  /// rows of one column before the next column, so the cores working at
  /// once share B's panels through L2 (each is fetched from HBM once per
  /// band, not once per row) as well as A's. 1: row by row.
  int64_t band = 1;
  /// Grown for the host executor (hostCubeTiling): not a device tiling.
  bool forHost = false;
};

/// CubeTiling::band for `mTiles` x `nTiles` output tiles on `blockDim`
/// cores: the largest divisor of mTiles not above sqrt(blockDim).
int64_t tileBand(int64_t mTiles, int64_t nTiles, int64_t blockDim);

/// Chooses the output tile, and the deepest K step that fits L0A/L0B and L1
/// double-buffered (L0C holds two fp32/int32 accumulators), that give the
/// busiest core the fewest estimated cycles: its fractal multiplies against
/// the bytes it loads (each tile reloads its A and B panels), overlapped as
/// double buffering allows; ties go to fewer, larger tiles. `cores` is the
/// cube core count after aicore_num (OP-3).
CubeTiling chooseCubeTiling(const CubeProblem &problem, const CoreFacts &facts, int64_t cores);

/// Byte bounds on a host tile (hostCubeTiling): its fp32 accumulator,
/// and its panel of A (a gathered patch matrix when A is a convolution's
/// input), so that a tile's working set stays in a host core's L2.
constexpr int64_t kHostAccumulatorBytes = 256 * 1024;
constexpr int64_t kHostPanelBytes = 512 * 1024;

/// `device` (chooseCubeTiling's choice for the SoC) with its M tile grown
/// to whole multiples for the host executor: the largest factor that
/// leaves at least `hostBlocks` tiles (when the device has more) and
/// keeps the tile's accumulator and A panel under the bounds above. K's
/// tiling is the device's, so every sum adds the same products, in the same
/// order, from the same padding: the host's tiles give the device's bits
/// with a fraction of the tiles (each costs the executor a round of runtime
/// calls whatever its size; PP-OCR's classifier ran 981 tiles for 2 host
/// threads). The result is not a device tiling: it may overflow L0A/L0C.
CubeTiling hostCubeTiling(const CubeTiling &device, const CubeProblem &problem,
                          const CoreFacts &facts, int64_t hostBlocks);

/// Tiles of a vector kernel over `elements` elements.
struct VectorTiling {
  int64_t tile = 0;  ///< elements per step
  int64_t tiles = 0;
  int64_t blockDim = 0;
};

/// The largest tile whose UB buffers (`bytesPerElement` summed over every
/// buffer of one step) fit UB twice (double buffering), aligned to 32-byte
/// blocks of `alignElements`, then shrunk so that every core gets work.
VectorTiling chooseVectorTiling(int64_t elements, int64_t bytesPerElement,
                                int64_t alignElements, const CoreFacts &facts, int64_t cores);

/// Rows of a row-wise kernel (reductions, Softmax, LayerNorm): `rows` rows
/// of `bytesPerRow` UB bytes each, every buffer held `copies` times (2:
/// double-buffered). Zero tiles when one row does not fit.
VectorTiling chooseRowTiling(int64_t rows, int64_t bytesPerRow, const CoreFacts &facts,
                             int64_t cores, int64_t copies = 2);

} // namespace ascendprec::kernel

#endif // ASCENDPREC_CONVERSION_ASCENDTOKERNEL_TILING_H
