//===- Tiling.cpp - tile sizes from the SoC's buffer sizes -----------------===//

#include "AscendPrec/Conversion/AscendToKernel/Tiling.h"
#include "AscendPrec/Dialect/Kernel/Analysis/KernelCost.h"

#include <algorithm>
#include <cmath>

using namespace ascendprec::kernel;

double ascendprec::kernel::gmReadCycles(double total, double sourceBytes, int64_t blocks,
                                         const CoreFacts &facts, double reuseBytes) {
  return gmReadCycles(total, sourceBytes, blocks, facts.l2, facts.ddrRate, facts.l2Rate,
                      reuseBytes);
}

namespace {

/// The busiest core's cycles for one candidate tile (docs/cost-model.md).
double cubeTileCycles(const CubeProblem &p, const CoreFacts &facts, int64_t cores,
                      int64_t mTile, int64_t nTile, int64_t kTile, int64_t kFull,
                      int64_t kFractal) {
  double inBytes = std::max<int64_t>(p.inBits / 8, 1);
  double outBytes = std::max<int64_t>(p.outBits / 8, 1);
  int64_t mFull = roundUp(p.m, facts.cubeM), nFull = roundUp(p.n, facts.cubeN);
  int64_t tiles = p.batch * ceilDiv(mFull, mTile) * ceilDiv(nFull, nTile);
  int64_t blocks = std::min(tiles, cores);
  double perCore = static_cast<double>(ceilDiv(tiles, cores));
  double kSteps = static_cast<double>(ceilDiv(kFull, kTile));
  double cube = perCore * (static_cast<double>(mTile) / facts.cubeM) *
                (static_cast<double>(nTile) / facts.cubeN) * kSteps *
                (static_cast<double>(kTile) / kFractal);
  double aBytes = static_cast<double>(p.batch) * p.m * p.k * inBytes;
  double bBytes = static_cast<double>(p.k) * p.n * inBytes;
  // A's panel is read again by the next tile of its row (the cost model's
  // rule): between two reads, the panels of the rows the cores work on.
  double rows = static_cast<double>(p.batch * ceilDiv(mFull, mTile));
  double aReuse = aBytes / rows * static_cast<double>(blocks);
  // B's panels: shared by a band's rows when tiles are walked in bands.
  int64_t band = tileBand(static_cast<int64_t>(rows) / std::max<int64_t>(p.batch, 1),
                          ceilDiv(nFull, nTile), blocks);
  double bTotal = perCore * kSteps * kTile * nTile * inBytes;
  double bReads = band > 1 ? bandedReadCycles(bTotal, bBytes, blocks, facts.l2, facts.ddrRate,
                                              facts.l2Rate, rows, static_cast<double>(band))
                           : gmReadCycles(bTotal, bBytes, blocks, facts);
  double move = gmReadCycles(perCore * kSteps * mTile * kTile * inBytes, aBytes, blocks, facts,
                             aReuse) +
                bReads +
                perCore * mTile * nTile * outBytes / std::max<int64_t>(facts.ddrRate, 1);
  double longest = std::max(cube, move);
  return longest + (cube + move - longest) / std::max(perCore * kSteps, 1.0);
}

} // namespace

CubeTiling ascendprec::kernel::chooseCubeTiling(const CubeProblem &problem,
                                                const CoreFacts &facts, int64_t cores) {
  CubeTiling best;
  int64_t inBytes = std::max<int64_t>(problem.inBits / 8, 1);
  // One fractal is cubeK elements of 16 bits deep.
  int64_t kFractal = facts.cubeK * 16 / problem.inBits;
  int64_t mFull = roundUp(problem.m, facts.cubeM);
  int64_t nFull = roundUp(problem.n, facts.cubeN);
  int64_t kFull = roundUp(problem.k, kFractal);
  cores = std::max<int64_t>(cores, 1);
  // Output tiles up to 256 x 256 (CANN's largest base block), in fractals.
  for (int64_t mTile = facts.cubeM; mTile <= std::min<int64_t>(mFull, 256); mTile += facts.cubeM)
    for (int64_t nTile = facts.cubeN; nTile <= std::min<int64_t>(nFull, 256);
         nTile += facts.cubeN) {
      if (2 * mTile * nTile * 4 > facts.l0c ||
          2 * mTile * nTile * problem.epilogueBytes + 2 * nTile * 8 > facts.ub)
        continue;
      // The deepest K step that fits L0A, L0B and L1, each double-buffered.
      int64_t kTile = 0;
      for (int64_t k = kFractal; k <= kFull; k += kFractal) {
        bool fits = 2 * mTile * k * inBytes <= facts.l0a && 2 * k * nTile * inBytes <= facts.l0b &&
                    2 * (mTile + nTile) * k * inBytes <= facts.l1;
        if (!fits)
          break;
        kTile = k;
      }
      if (kTile == 0)
        continue;
      double cycles =
          cubeTileCycles(problem, facts, cores, mTile, nTile, kTile, kFull, kFractal);
      bool better = best.kTile == 0 || cycles < best.cycles * (1 - 1e-9) ||
                    (cycles <= best.cycles * (1 + 1e-9) && mTile * nTile > best.mTile * best.nTile);
      if (!better)
        continue;
      int64_t tiles = problem.batch * ceilDiv(mFull, mTile) * ceilDiv(nFull, nTile);
      int64_t kSteps = ceilDiv(kFull, kTile);
      best.mTile = mTile;
      best.nTile = nTile;
      best.kTile = kTile;
      best.mPadded = roundUp(mFull, mTile);
      best.nPadded = roundUp(nFull, nTile);
      best.kPadded = kSteps * kTile;
      best.tiles = tiles;
      best.kSteps = kSteps;
      best.blockDim = std::min(tiles, cores);
      best.kFractal = kFractal;
      best.cycles = cycles;
    }
  best.band = tileBand(best.mPadded / std::max<int64_t>(best.mTile, 1),
                       best.nPadded / std::max<int64_t>(best.nTile, 1), best.blockDim);
  return best;
}

CubeTiling ascendprec::kernel::hostCubeTiling(const CubeTiling &device,
                                              const CubeProblem &problem,
                                              const CoreFacts &facts, int64_t hostBlocks) {
  if (device.kTile == 0 || device.mTile == 0 || device.nTile == 0 || hostBlocks < 1)
    return device;
  int64_t inBytes = std::max<int64_t>(problem.inBits / 8, 1);
  int64_t mFull = roundUp(problem.m, facts.cubeM);
  int64_t nTiles = device.nPadded / device.nTile;
  int64_t mTiles = ceilDiv(mFull, device.mTile);
  // The factor leaving the fewest tiles that are still enough, padding M
  // least among those.
  int64_t best = 1, bestTiles = device.tiles, bestPadded = device.mPadded;
  for (int64_t factor = 2; factor <= mTiles; ++factor) {
    int64_t mTile = device.mTile * factor;
    if (mTile * device.nTile * 4 > kHostAccumulatorBytes ||
        mTile * device.kTile * inBytes > kHostPanelBytes)
      break;
    int64_t tiles = problem.batch * ceilDiv(mFull, mTile) * nTiles;
    if (tiles < std::min(hostBlocks, device.tiles))
      break;
    int64_t padded = roundUp(mFull, mTile);
    if (tiles < bestTiles || (tiles == bestTiles && padded < bestPadded)) {
      best = factor;
      bestTiles = tiles;
      bestPadded = padded;
    }
  }
  if (best == 1)
    return device;
  CubeTiling host = device;
  host.mTile = device.mTile * best;
  host.mPadded = bestPadded;
  host.tiles = bestTiles;
  host.blockDim = std::min(host.tiles, device.blockDim);
  host.band = tileBand(host.mPadded / host.mTile, nTiles, host.blockDim);
  host.forHost = true;
  return host;
}

int64_t ascendprec::kernel::tileBand(int64_t mTiles, int64_t nTiles, int64_t blockDim) {
  // About as many rows as columns among the tiles the cores work on at
  // once (sqrt of the cores), and a divisor of the rows so every band is
  // whole; nothing to share with one row or one column.
  if (mTiles <= 1 || nTiles <= 1 || blockDim <= 1)
    return 1;
  int64_t band = std::max<int64_t>(1, static_cast<int64_t>(std::sqrt(static_cast<double>(blockDim))));
  band = std::min(band, mTiles);
  while (mTiles % band != 0)
    --band;
  return band;
}

VectorTiling ascendprec::kernel::chooseVectorTiling(int64_t elements, int64_t bytesPerElement,
                                                    int64_t alignElements,
                                                    const CoreFacts &facts, int64_t cores) {
  VectorTiling tiling;
  alignElements = std::max<int64_t>(alignElements, 1);
  cores = std::max<int64_t>(cores, 1);
  int64_t fit = facts.ub / (2 * std::max<int64_t>(bytesPerElement, 1));
  fit -= fit % alignElements;
  if (fit <= 0 || elements <= 0)
    return tiling;
  // Enough tiles for every core, never below one aligned block.
  int64_t share = roundUp(ceilDiv(elements, cores), alignElements);
  tiling.tile = std::min({fit, share, roundUp(elements, alignElements)});
  tiling.tiles = ceilDiv(elements, tiling.tile);
  tiling.blockDim = std::min(tiling.tiles, cores);
  return tiling;
}

VectorTiling ascendprec::kernel::chooseRowTiling(int64_t rows, int64_t bytesPerRow,
                                                 const CoreFacts &facts, int64_t cores,
                                                 int64_t copies) {
  VectorTiling tiling;
  cores = std::max<int64_t>(cores, 1);
  int64_t fit = facts.ub / (std::max<int64_t>(copies, 1) * std::max<int64_t>(bytesPerRow, 1));
  if (fit <= 0 || rows <= 0)
    return tiling;
  tiling.tile = std::min(fit, ceilDiv(rows, cores));
  tiling.tiles = ceilDiv(rows, tiling.tile);
  tiling.blockDim = std::min(tiling.tiles, cores);
  return tiling;
}
