//===- CubeKernel.cpp - the tiled multiply-accumulate loop of a cube kernel ===//

#include "CubeKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

Type ascendprec::kernel::cubeAccumulatorType(Type input) {
  if (input.isInteger(8))
    return IntegerType::get(input.getContext(), 32);
  return Float32Type::get(input.getContext());
}

CubeTiling ascendprec::kernel::cubeTilingFor(const CubeProblem &problem,
                                            const LoweringContext &context) {
  CubeTiling device = chooseCubeTiling(problem, context.facts, context.cubeCores);
  if (context.hostBlocks <= 0)
    return device;
  return hostCubeTiling(device, problem, context.facts, context.hostBlocks);
}

void ascendprec::kernel::buildCubeKernel(KernelBuilder &kb, const CubeKernelSpec &spec) {
  const CubeTiling &t = spec.tiling;
  OpBuilder &b = kb.builder();
  Location loc = kb.loc();
  Type acc = cubeAccumulatorType(spec.inputType);
  SmallVector<std::pair<StringRef, int64_t>> facts = {
      {"m", t.mTile},          {"n", t.nTile},          {"k", t.kTile},    {"m_padded", t.mPadded},
      {"n_padded", t.nPadded}, {"k_padded", t.kPadded}, {"tiles", t.tiles}};
  if (t.band > 1)
    facts.push_back({"band", t.band});
  kb.setTiling(facts);
  if (t.forHost)
    kb.setHostTiling();
  kb.setDoubleBuffer();
  Value aL1 = kb.alloc({t.mTile, t.kTile}, spec.inputType, MemorySpace::L1);
  Value bL1 = kb.alloc({t.kTile, t.nTile}, spec.inputType, MemorySpace::L1);
  Value aL0 = kb.alloc({t.mTile, t.kTile}, spec.inputType, MemorySpace::L0A);
  Value bL0 = kb.alloc({t.kTile, t.nTile}, spec.inputType, MemorySpace::L0B);
  Value accL0 = kb.alloc({t.mTile, t.nTile}, acc, MemorySpace::L0C);

  Value tile = kb.openTileLoop(t.tiles, t.blockDim);
  // Each tile reads A and B and writes its own part of the output.
  cast<BlockArgument>(tile).getOwner()->getParentOp()->setAttr(kIndependentTilesAttr,
                                                               b.getUnitAttr());
  // tile = ((outer...) * bands + band) * nTiles * G + ni * G + r, with
  // mi = band * G + r for bands of G rows (G = 1: row by row, mi * nTiles
  // + ni): down G rows of a column, then the next column.
  int64_t mTiles = t.mPadded / t.mTile, nTiles = t.nPadded / t.nTile;
  int64_t band = std::max<int64_t>(t.band, 1);
  TilePosition pos;
  // Peels one index of `size` off `rest` (nothing to compute for size 1).
  Value rest = tile;
  auto peel = [&](int64_t size) -> Value {
    if (size == 1)
      return kb.index(0);
    Value index = arith::RemUIOp::create(b, loc, rest, kb.index(size));
    rest = arith::DivUIOp::create(b, loc, rest, kb.index(size));
    return index;
  };
  Value r = peel(band);
  Value ni = peel(nTiles);
  Value mi = peel(mTiles / band);
  if (band > 1)
    mi = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, mi, kb.index(band)), r);
  SmallVector<Value> outer(spec.outerSizes.size());
  for (int64_t i = static_cast<int64_t>(spec.outerSizes.size()) - 1; i >= 0; --i)
    outer[i] = peel(spec.outerSizes[i]);
  pos.outer = outer;
  pos.m = arith::MulIOp::create(b, loc, mi, kb.index(t.mTile));
  pos.n = arith::MulIOp::create(b, loc, ni, kb.index(t.nTile));

  Value k = kb.openLoop(t.kPadded, t.kTile);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, k, kb.index(0));
  spec.loadA(b, pos, k, aL1);
  spec.loadB(b, pos, k, bL1);
  CopyOp::create(b, loc, aL1, aL0);
  CopyOp::create(b, loc, bL1, bL0);
  MmadOp::create(b, loc, aL0, bL0, accL0, first);
  kb.closeLoop();

  spec.epilogue(b, pos, accL0);
  kb.closeLoop();
}

Value ascendprec::kernel::loadBiasForFixpipe(KernelBuilder &kb, OpBuilder &b, Value bias,
                                             ValueRange outer, Value n, int64_t nTile,
                                             Type accType) {
  Location loc = kb.loc();
  Type biasType = getElementTypeOrSelf(bias.getType());
  Value raw = kb.alloc({nTile}, biasType, MemorySpace::UB);
  SmallVector<Value> offsets(outer);
  offsets.push_back(n);
  loadTile(b, loc, bias, offsets, raw);
  if (biasType == accType)
    return raw;
  Value converted = kb.alloc({nTile}, accType, MemorySpace::UB);
  kernel::CastOp::create(b, loc, raw, converted, RoundingMode::Rint);
  return converted;
}
