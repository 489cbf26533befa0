//===- ConstantTiles.h - planned tiles of B from a model's weights --------===//
//
// Internal to lib/Runtime (CubeLoop.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_RUNTIME_CONSTANTTILES_H
#define ASCENDPREC_LIB_RUNTIME_CONSTANTTILES_H

#include "CubeTile.h"
#include "RuntimeBuffers.h"

#include <cstdint>
#include <vector>

namespace ascendprec::runtime::detail {

/// A tile of B as loaded, and its plan for the multiply.
struct KeptTile {
  CacheLineVector<uint8_t> bytes;
  RhsPlan plan;
};

/// Whether every element `gm` views lies in memory given to
/// rememberConstant (KernelRuntime.h). Remembers its last answer per
/// thread until a region is remembered or forgotten.
bool isRememberedConstant(const Buffer &gm);

/// A tile key's hash: keys are looked up once per cube loop or per K step
/// of every block, where ordered maps spent 4-5% of a small model's run
/// comparing keys.
struct TileKeyHash {
  size_t operator()(const std::vector<int64_t> &key) const {
    uint64_t hash = 0x9e3779b97f4a7c15ull;
    for (int64_t value : key) {
      hash ^= static_cast<uint64_t>(value) + 0x9e3779b97f4a7c15ull + (hash << 6) + (hash >> 2);
      hash *= 0xff51afd7ed558ccdull;
    }
    return static_cast<size_t>(hash ^ (hash >> 32));
  }
};

/// The key of the tile a load of `mode` with `params` reads from `gm` at
/// `offsets` into `tile`, multiplied as `in`: everything the loaded bytes
/// and their plan depend on, the GM address included.
void constantTileKey(const Buffer &gm, const std::vector<int64_t> &offsets,
                     const std::vector<int64_t> &params, LoadMode mode, const Buffer &tile,
                     ElementType in, std::vector<int64_t> &key);

/// Changes whenever kept tiles are dropped (a constant forgotten): a tile's
/// address names its contents for as long as the generation stays.
uint64_t constantTilesGeneration();

/// The tile kept under `key`, or null. Shared by every thread; an entry
/// stays valid until its constant is forgotten.
const KeptTile *findConstantTile(const std::vector<int64_t> &key);

/// Keeps a copy of `tile` (as loaded) under `key`, planned for `in`; null
/// when the kept tiles would pass their cap.
const KeptTile *keepConstantTile(const std::vector<int64_t> &key, const Buffer &tile,
                                 ElementType in);

/// Whether `bytes` more would fit under the kept tiles' cap now (another
/// thread may take the room first: keeping may still fail).
bool constantTilesHaveRoomFor(size_t bytes);

/// Sets the kept tiles' cap (0: the default, 160 MiB) and returns the one
/// before: tests reach it without 160 MiB of weights.
size_t setConstantTilesCap(size_t bytes);

/// Keeps `bytes`, a [k, n] tile of `in` that the caller built from a
/// constant (a recurrent layer's transposed weights), under `key` (whose
/// first element is the constant's address), planned; null when the kept
/// tiles would pass their cap. `bytes` is left empty unless null is
/// returned.
const KeptTile *keepConstantBytes(const std::vector<int64_t> &key, CacheLineVector<uint8_t> &bytes,
                                  int64_t k, int64_t n, ElementType in);

} // namespace ascendprec::runtime::detail

#endif // ASCENDPREC_LIB_RUNTIME_CONSTANTTILES_H
