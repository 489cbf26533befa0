//===- ConstantTiles.cpp - planned tiles of B from a model's weights ------===//
//
// A convolution's filter is loaded into tiles of B by a gather (transposed,
// or packed block-diagonal for a depthwise group) and planned for the
// multiply: which rows and columns are zero, which few entries a packed
// group's columns hold. Per launch, that costs as much as the multiply of
// a small convolution (a 5x5 depthwise one at 2x96 spent a third of its
// time planning). The executor hands the runtime the memory of the
// model's weights (rememberConstant): nothing writes there until it is
// forgotten, so the tiles loaded from it are kept, planned, for every
// later launch and run, by every thread.
//
//===----------------------------------------------------------------------===//

#include "ConstantTiles.h"

#include <atomic>

#include "AscendPrec/Runtime/KernelRuntime.h"

#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

using namespace ascendprec::runtime;
using namespace ascendprec::runtime::detail;

namespace {

/// Kept tiles never pass this many bytes (tiles and plans): the weights of
/// a ResNet-50 in fp16, planned, fit; beyond it a launch keeps its tiles
/// for itself, as it does for buffers that are not constants.
constexpr size_t kDefaultCapBytes = size_t(160) << 20;
std::atomic<size_t> capBytes{kDefaultCapBytes};

struct Region {
  uintptr_t end;
  unsigned users; ///< rememberConstant calls not yet forgotten
};

struct Registry {
  std::shared_mutex mutex;
  std::map<uintptr_t, Region> regions; ///< by start address
  std::unordered_map<std::vector<int64_t>, std::unique_ptr<KeptTile>, TileKeyHash> tiles;
  size_t bytes = 0;

  static size_t sizeOf(const KeptTile &tile) {
    return tile.bytes.size() +
           sizeof(float) * (tile.plan.packed.size() + tile.plan.columnWeights.size()) +
           sizeof(int64_t) * (tile.plan.keptK.size() + tile.plan.keptN.size() +
                              tile.plan.columnStart.size() + tile.plan.columnRows.size());
  }
};

Registry &registry() {
  // Never destroyed: tensors freed during exit still find it.
  static auto *instance = new Registry;
  return *instance;
}

/// The first and one past the last byte `gm` views.
std::pair<uintptr_t, uintptr_t> extentOf(const Buffer &gm) {
  auto start = reinterpret_cast<uintptr_t>(gm.data);
  int64_t last = 0;
  for (int64_t d = 0; d < gm.rank; ++d) {
    if (gm.sizes[d] <= 0)
      return {start, start};
    if (gm.strides[d] < 0)
      return {0, 0}; // never a constant's view: not kept
    last += (gm.sizes[d] - 1) * gm.strides[d];
  }
  return {start, start + (static_cast<uintptr_t>(last) + 1) * gm.bytes};
}

} // namespace

namespace {
std::atomic<uint64_t> tilesGeneration{1};
/// Changes whenever a region is remembered or forgotten.
std::atomic<uint64_t> regionsGeneration{1};

/// Whether bytes [start, end) lie in one region given to rememberConstant
/// (the registry's answer, under its lock).
bool isInRememberedRegion(uintptr_t start, uintptr_t end) {
  Registry &r = registry();
  std::shared_lock<std::shared_mutex> lock(r.mutex);
  auto it = r.regions.upper_bound(start);
  if (it == r.regions.begin())
    return false;
  --it;
  return it->first <= start && end <= it->second.end;
}

} // namespace

void ascendprec::runtime::rememberConstant(const void *data, size_t bytes) {
  if (!data || !bytes)
    return;
  Registry &r = registry();
  std::unique_lock<std::shared_mutex> lock(r.mutex);
  auto start = reinterpret_cast<uintptr_t>(data);
  regionsGeneration.fetch_add(1, std::memory_order_acq_rel);
  auto [it, inserted] = r.regions.try_emplace(start, Region{start + bytes, 0});
  if (!inserted && it->second.end < start + bytes)
    it->second.end = start + bytes;
  ++it->second.users;
}


uint64_t ascendprec::runtime::detail::constantTilesGeneration() {
  return tilesGeneration.load(std::memory_order_acquire);
}

void ascendprec::runtime::forgetConstant(const void *data) {
  Registry &r = registry();
  std::unique_lock<std::shared_mutex> lock(r.mutex);
  auto it = r.regions.find(reinterpret_cast<uintptr_t>(data));
  if (it == r.regions.end() || --it->second.users > 0)
    return;
  tilesGeneration.fetch_add(1, std::memory_order_acq_rel);
  regionsGeneration.fetch_add(1, std::memory_order_acq_rel);
  uintptr_t start = it->first, end = it->second.end;
  r.regions.erase(it);
  // Keys start with the GM address.
  for (auto tile = r.tiles.begin(); tile != r.tiles.end();) {
    auto address = static_cast<uintptr_t>(tile->first.front());
    if (address < start || address >= end) {
      ++tile;
      continue;
    }
    r.bytes -= Registry::sizeOf(*tile->second);
    tile = r.tiles.erase(tile);
  }
}

bool ascendprec::runtime::detail::isRememberedConstant(const Buffer &gm) {
  auto [start, end] = extentOf(gm);
  if (start == end)
    return false;
  // The last answer, while no region came or went: every tile of a kernel
  // asks of the same B (the lock's shared counter was a few percent of a
  // small model's run, its cache line moving between the threads).
  thread_local struct {
    uintptr_t start = 0, end = 0;
    uint64_t generation = 0;
    bool answer = false;
  } last;
  uint64_t generation = regionsGeneration.load(std::memory_order_acquire);
  if (last.generation == generation && last.start == start && last.end == end)
    return last.answer;
  last = {start, end, generation, isInRememberedRegion(start, end)};
  return last.answer;
}


void ascendprec::runtime::detail::constantTileKey(const Buffer &gm,
                                                  const std::vector<int64_t> &offsets,
                                                  const std::vector<int64_t> &params,
                                                  LoadMode mode, const Buffer &tile,
                                                  ElementType in, std::vector<int64_t> &key) {
  // The address first: forgetConstant finds a region's keys by it.
  key.assign({reinterpret_cast<int64_t>(gm.data), gm.rank, static_cast<int64_t>(gm.bytes),
              static_cast<int64_t>(mode), static_cast<int64_t>(in), tile.sizes[0],
              tile.sizes[1], static_cast<int64_t>(offsets.size()),
              static_cast<int64_t>(params.size())});
  key.insert(key.end(), gm.sizes, gm.sizes + gm.rank);
  key.insert(key.end(), gm.strides, gm.strides + gm.rank);
  key.insert(key.end(), offsets.begin(), offsets.end());
  key.insert(key.end(), params.begin(), params.end());
}

const KeptTile *ascendprec::runtime::detail::findConstantTile(const std::vector<int64_t> &key) {
  Registry &r = registry();
  std::shared_lock<std::shared_mutex> lock(r.mutex);
  auto it = r.tiles.find(key);
  return it == r.tiles.end() ? nullptr : it->second.get();
}

namespace {

/// Stores `kept` under `key` unless another thread stored it first (its
/// tile then wins) or the cap is reached (null).
const KeptTile *storeKept(const std::vector<int64_t> &key, std::unique_ptr<KeptTile> &kept) {
  size_t bytes = Registry::sizeOf(*kept);
  Registry &r = registry();
  std::unique_lock<std::shared_mutex> lock(r.mutex);
  auto it = r.tiles.find(key);
  if (it != r.tiles.end())
    return it->second.get();
  if (r.bytes + bytes > capBytes.load(std::memory_order_relaxed))
    return nullptr;
  r.bytes += bytes;
  return r.tiles.emplace(key, std::move(kept)).first->second.get();
}

} // namespace

const KeptTile *ascendprec::runtime::detail::keepConstantTile(const std::vector<int64_t> &key,
                                                              const Buffer &tile,
                                                              ElementType in) {
  // Planned outside the lock: another thread may plan the same tile, and
  // the first to store it wins.
  auto kept = std::make_unique<KeptTile>();
  size_t size = tile.numElements() * tile.bytes;
  kept->bytes.assign(tile.data, tile.data + size);
  planRhs(in, kept->bytes.data(), tile.sizes[1], tile.sizes[0], tile.sizes[1], kept->plan);
  return storeKept(key, kept);
}

const KeptTile *ascendprec::runtime::detail::keepConstantBytes(const std::vector<int64_t> &key,
                                                               CacheLineVector<uint8_t> &bytes,
                                                               int64_t k, int64_t n,
                                                               ElementType in) {
  auto kept = std::make_unique<KeptTile>();
  kept->bytes.swap(bytes);
  planRhs(in, kept->bytes.data(), n, k, n, kept->plan);
  if (const KeptTile *stored = storeKept(key, kept))
    return stored;
  bytes.swap(kept->bytes); // not kept: the caller's again
  return nullptr;
}

bool ascendprec::runtime::detail::constantTilesHaveRoomFor(size_t bytes) {
  Registry &r = registry();
  std::shared_lock<std::shared_mutex> lock(r.mutex);
  return r.bytes + bytes <= capBytes.load(std::memory_order_relaxed);
}

size_t ascendprec::runtime::detail::setConstantTilesCap(size_t bytes) {
  return capBytes.exchange(bytes ? bytes : kDefaultCapBytes);
}
