//===- Tiling.cpp - tile sizes from the SoC's buffer sizes -----------------===//

#include "AscendPrec/Conversion/AscendToKernel/Tiling.h"

#include <algorithm>

using namespace ascendprec::kernel;

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
  int64_t bestWork = -1;
  // Output tiles up to 256 x 256 (CANN's largest base block), in fractals.
  for (int64_t mTile = facts.cubeM; mTile <= std::min<int64_t>(mFull, 256); mTile += facts.cubeM)
    for (int64_t nTile = facts.cubeN; nTile <= std::min<int64_t>(nFull, 256);
         nTile += facts.cubeN) {
      if (2 * mTile * nTile * 4 > facts.l0c)
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
      int64_t tiles = problem.batch * ceilDiv(mFull, mTile) * ceilDiv(nFull, nTile);
      int64_t perCore = ceilDiv(tiles, cores);
      int64_t kSteps = ceilDiv(kFull, kTile);
      // Padded multiply-accumulate work of the busiest core.
      int64_t work = perCore * mTile * nTile * kSteps * kTile;
      bool better = bestWork < 0 || work < bestWork ||
                    (work == bestWork && mTile * nTile > best.mTile * best.nTile) ||
                    (work == bestWork && mTile * nTile == best.mTile * best.nTile &&
                     kTile > best.kTile);
      if (!better)
        continue;
      bestWork = work;
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
    }
  return best;
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
                                                 const CoreFacts &facts, int64_t cores) {
  VectorTiling tiling;
  cores = std::max<int64_t>(cores, 1);
  int64_t fit = facts.ub / (2 * std::max<int64_t>(bytesPerRow, 1));
  if (fit <= 0 || rows <= 0)
    return tiling;
  tiling.tile = std::min(fit, ceilDiv(rows, cores));
  tiling.tiles = ceilDiv(rows, tiling.tile);
  tiling.blockDim = std::min(tiling.tiles, cores);
  return tiling;
}
