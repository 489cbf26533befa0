//===- CubeLoop.cpp - a cube kernel's K loop in one runtime call ----------===//
//
// Every cube kernel multiplies a tile as a loop over K: load a tile of A
// and one of B into L1, copy both to L0A/L0B, mmad into L0C (initialised
// at k = 0). The codegen turns such a loop into one call of
// `ascendprec_rt_cube_loop`, which gives L0C the same bits without the
// device's data movement: nothing is copied to L0, a plain or transposed
// tile that lies wholly inside GM is read where it is, an img2col tile is
// gathered K-major (a patch column is a run of one input row), and a tile
// of B that a kernel only reads is loaded once per launch and reused by
// every tile of that launch, with its plan for the multiply (which rows and
// columns are zero padding, B widened to fp32); once per process when it is
// a gathered tile (transposed, a filter's) of a model's weights
// (ConstantTiles.cpp). A convolution with stride 1 along
// W skips the gather: its sums run across output positions over a padded
// copy of the map's rows (DirectPatches.cpp). The multiply-accumulate is
// the same code, on the same values, in the same K order as the loop's
// mmads.
//
//===----------------------------------------------------------------------===//

#include "ConstantTiles.h"
#include "CubeTile.h"
#include "DirectPatches.h"
#include "PatchPlane.h"
#include "RuntimeBuffers.h"
#include "SparsePatches.h"
#include "SpreadPatches.h"
#include "StridedCopy.h"

#include "AscendPrec/Runtime/KernelRuntime.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <optional>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <vector>

using namespace ascendprec::runtime;
using namespace ascendprec::runtime::detail;

namespace {

/// The least output width DirectPatches.cpp multiplies (its vectors run
/// across one output row's positions).
constexpr int64_t kDirectPatchesFromWidth = 8;

/// Whether rows [from, k) of a kept [k, n] tile are all +0 (K's padding
/// past the last real row).
bool tileRowsAreZero(const KeptTile *tile, int64_t from, int64_t k, int64_t n, int64_t bytes) {
  const uint8_t *padding = tile->bytes.data() + from * n * bytes;
  return std::all_of(padding, padding + (k - from) * n * bytes,
                     [](uint8_t byte) { return byte == 0; });
}

/// Copies `count` elements. Patch runs are as short as an output row (28
/// elements in a MobileNet block), where a call of memcpy costs more than
/// the copy: runs under 32 elements go in fixed-size pieces (the last one
/// overlapping the one before), which the compiler inlines.
template <typename T> inline void copyRun(T *target, const T *source, int64_t count) {
  if (count >= 32) {
    std::memcpy(target, source, count * sizeof(T));
    return;
  }
  auto pieces = [&](auto width) {
    constexpr int64_t kWidth = decltype(width)::value;
    int64_t i = 0;
    for (; i + kWidth <= count; i += kWidth)
      std::memcpy(target + i, source + i, kWidth * sizeof(T));
    if (i < count)
      std::memcpy(target + count - kWidth, source + count - kWidth, kWidth * sizeof(T));
  };
  if (count >= 8)
    pieces(std::integral_constant<int64_t, 8>());
  else if (count >= 2)
    pieces(std::integral_constant<int64_t, 2>());
  else if (count == 1)
    *target = *source;
}

/// The img2col tile of rows [m0, m0 + rows) and columns [k0, k0 + cols),
/// K-major: column j at out[j * rows]. The same elements as
/// TileMovement.cpp's loadImg2Col (zero for padding, for channels past the
/// last, for rows past the last output position), in another layout.
template <typename T>
void gatherPatchesKMajor(const T *source, const PatchPlane &g, int64_t m0, int64_t k0,
                         int64_t rows, int64_t cols, T *out) {
  int64_t window = g.kernelH * g.kernelW;
  int64_t validRows = std::clamp<int64_t>(g.outH * g.outW - m0, 0, rows);
  int64_t c = k0 / window, t = (k0 % window) / g.kernelW, q = k0 % g.kernelW;
  for (int64_t j = 0; j < cols; ++j) {
    T *column = out + j * rows;
    std::fill(column + validRows, column + rows, T{});
    if (c >= g.channels) {
      std::fill(column, column + validRows, T{});
    } else {
      const T *channel = source + g.base + c * g.channelStride;
      int64_t dh = t * g.dilationH, dw = q * g.dilationW;
      // Along the rows, one segment per output row: its inputs are one input
      // row, every strideW-th element from w0.
      int64_t i = 0, oh = m0 / g.outW, ow = m0 % g.outW;
      while (i < validRows) {
        int64_t run = std::min(validRows - i, g.outW - ow);
        int64_t h = oh * g.strideH - g.padTop + dh;
        T *target = column + i;
        if (h < 0 || h >= g.height) {
          std::fill(target, target + run, T{});
        } else {
          const T *line = channel + h * g.rowStride;
          int64_t w0 = ow * g.strideW - g.padLeft + dw;
          // Segment elements [begin, end) lie inside the row.
          int64_t begin = w0 >= 0 ? 0 : (-w0 + g.strideW - 1) / g.strideW;
          int64_t end = w0 < g.width ? (g.width - w0 + g.strideW - 1) / g.strideW : 0;
          end = std::min(end, run);
          begin = std::min(begin, end);
          std::fill(target, target + begin, T{});
          if (g.strideW == 1 && g.columnStride == 1) {
            copyRun(target + begin, line + w0 + begin, end - begin);
          } else {
            int64_t step = g.strideW * g.columnStride;
            copyStrided(line + (w0 + begin * g.strideW) * g.columnStride, step, target + begin,
                        end - begin);
          }
          std::fill(target + end, target + run, T{});
        }
        i += run;
        ow = 0;
        ++oh;
      }
    }
    if (++q == g.kernelW) {
      q = 0;
      if (++t == g.kernelH) {
        t = 0;
        ++c;
      }
    }
  }
}

/// Where a plain or transposed load's [rows, cols] tile lies in GM when it
/// lies wholly inside (the load would zero-fill nothing), so the multiply
/// can read it in place: tile [i, j] at start + i * row + j * column
/// (elements). A transposed load reads GM [.., c0 + j, r0 + i].
struct InPlace {
  const uint8_t *start = nullptr;
  int64_t row = 0, column = 0;
};

bool readInPlace(const Buffer &gm, const std::vector<int64_t> &offsets, int64_t rows,
                 int64_t cols, bool transposed, InPlace &place) {
  if (gm.rank < 2 || static_cast<int64_t>(offsets.size()) != gm.rank)
    return false;
  int64_t r = gm.rank - 2, c = gm.rank - 1, at = 0;
  for (int64_t d = 0; d < r; ++d) {
    if (offsets[d] < 0 || offsets[d] >= gm.sizes[d])
      return false;
    at += offsets[d] * gm.strides[d];
  }
  int64_t alongR = transposed ? cols : rows, alongC = transposed ? rows : cols;
  if (offsets[r] < 0 || offsets[r] + alongR > gm.sizes[r] || offsets[c] < 0 ||
      offsets[c] + alongC > gm.sizes[c])
    return false;
  at += offsets[r] * gm.strides[r] + offsets[c] * gm.strides[c];
  place.start = gm.at(at);
  place.row = transposed ? gm.strides[c] : gm.strides[r];
  place.column = transposed ? gm.strides[r] : gm.strides[c];
  return true;
}

/// Tiles of B that a kernel never writes, kept for the rest of a launch
/// (setLaunchId), else of a block run (the codegen starts each run with
/// ascendprec_rt_block_begin): tiles share their tiles of B whenever they
/// share N.
class ReadOnlyTiles {
public:
  void clear() {
    index.clear();
    used = 0;
    bytes = 0;
  }

  /// The tile loaded from `gm` at `offsets`, or null when it is not kept.
  const KeptTile *find(const Buffer &gm, const std::vector<int64_t> &offsets, LoadMode mode,
                       const Buffer &tile) {
    fillKey(gm, offsets, mode, tile);
    auto it = index.find(key);
    return it == index.end() ? nullptr : pool[it->second].get();
  }

  /// Whether a tile of `tile`'s size fits under the cap.
  bool hasRoomFor(const Buffer &tile) const {
    return bytes + tile.numElements() * tile.bytes <= kCapBytes;
  }

  /// Keeps a copy of `tile` as loaded (`params` given: loads it from `gm`
  /// straight into the kept storage; else `tile` holds it), planned for
  /// inputs of `in`; null past the cap.
  const KeptTile *keep(const Buffer &gm, const std::vector<int64_t> &offsets, LoadMode mode,
                       const Buffer &tile, ElementType in,
                       const std::vector<int64_t> *params = nullptr) {
    size_t size = tile.numElements() * tile.bytes;
    if (bytes + size > kCapBytes)
      return nullptr;
    bytes += size;
    fillKey(gm, offsets, mode, tile);
    // Entries are reused from one block run to the next, their storage
    // with them: a small convolution keeps ten tiles per block.
    if (used == pool.size())
      pool.push_back(std::make_unique<KeptTile>());
    KeptTile &kept = *pool[used];
    index[key] = used++;
    if (params) {
      // One copy instead of two (a matmul's weights went through the tile
      // and then into the kept storage: 14% of BERT's run).
      kept.bytes.resize(size);
      loadTile(gm, Buffer{kept.bytes.data(), tile.rank, tile.sizes, tile.strides, tile.bytes},
               offsets, *params, mode);
    } else {
      kept.bytes.assign(tile.data, tile.data + size);
    }
    planRhs(in, kept.bytes.data(), tile.sizes[1], tile.sizes[0], tile.sizes[1], kept.plan);
    return &kept;
  }

private:
  // Enough for the weights of any one convolution's N tile, and for a
  // BERT-base feed-forward matrix (9.4 MB in fp32), whose every N tile a
  // thread meets in a launch; a block whose tiles of B exceed it loads the
  // rest as the loop would.
  static constexpr size_t kCapBytes = 16u << 20;
  using Key = std::vector<int64_t>;

  /// The tile's key into `key`, whose storage is reused: a lookup per K
  /// step allocates nothing.
  void fillKey(const Buffer &gm, const std::vector<int64_t> &offsets, LoadMode mode,
               const Buffer &tile) {
    key.assign({reinterpret_cast<int64_t>(gm.data), gm.rank, static_cast<int64_t>(gm.bytes),
                static_cast<int64_t>(mode), tile.sizes[0], tile.sizes[1]});
    key.insert(key.end(), gm.sizes, gm.sizes + gm.rank);
    key.insert(key.end(), gm.strides, gm.strides + gm.rank);
    key.insert(key.end(), offsets.begin(), offsets.end());
  }

  std::unordered_map<Key, size_t, TileKeyHash> index;
  std::vector<std::unique_ptr<KeptTile>> pool;
  size_t used = 0;
  Key key;
  size_t bytes = 0;
};

thread_local ReadOnlyTiles readOnlyTiles;
/// The launch this thread runs blocks of (0: none), and the launch its
/// kept tiles are of.
thread_local uint64_t launchOfThread = 0, keptForLaunch = 0;
std::atomic<uint64_t> launchesStarted{0};

/// The tile of B a kernel only reads at `offsets`, kept: among the constant
/// tiles when B is a model's weights (`constant`) and they have room, else
/// for the launch (`keptAsConstant` says which).
/// A constant's tile not kept yet is loaded into `bTile` first (`loaded`),
/// a launch's straight into the kept storage; null when it does not fit
/// either cap (the caller multiplies `bTile`, loaded or not as `loaded`
/// says).
const KeptTile *keptTileOfB(const Buffer &bGm, const std::vector<int64_t> &bOffsets,
                            const std::vector<int64_t> &bParams, LoadMode bLoad,
                            const Buffer &bTile, ElementType in, bool constant, bool &loaded,
                            bool &keptAsConstant) {
  loaded = false;
  keptAsConstant = false;
  if (constant) {
    thread_local std::vector<int64_t> key;
    constantTileKey(bGm, bOffsets, bParams, bLoad, bTile, in, key);
    if (const KeptTile *kept = findConstantTile(key)) {
      keptAsConstant = true;
      return kept;
    }
    // Past the cap, a launch's tile is loaded once, into its kept storage.
    if (constantTilesHaveRoomFor(bTile.numElements() * bTile.bytes)) {
      loadTile(bGm, bTile, bOffsets, bParams, bLoad);
      loaded = true;
      if (const KeptTile *kept = keepConstantTile(key, bTile, in)) {
        keptAsConstant = true;
        return kept;
      }
    }
  }
  if (const KeptTile *kept = readOnlyTiles.find(bGm, bOffsets, bLoad, bTile))
    return kept;
  if (!readOnlyTiles.hasRoomFor(bTile))
    return nullptr; // the caller may read it in place, if not loaded
  if (loaded)
    return readOnlyTiles.keep(bGm, bOffsets, bLoad, bTile, in);
  // Loaded into the kept storage (bTile stays as it was: the caller reads
  // the kept tile; the cap was checked above).
  return readOnlyTiles.keep(bGm, bOffsets, bLoad, bTile, in, &bParams);
}

/// A K loop's kept tiles of B, and whether every one's plan lists its
/// nonzeros column by column and none is tiny (what SparsePatches.cpp
/// needs): worked out once with the list, since reading each tile's plan
/// again for every tile of A missed the cache once per step (5% of a chain
/// of 5x5 depthwise convolutions).
struct KeptList {
  std::vector<const KeptTile *> tiles;
  std::vector<const uint8_t *> bytes; ///< each tile's, read once here
  bool listed = false;
  /// The tiles' sparse layout (a packed depthwise group's weight table),
  /// made by the first tile of A that multiplies them sparsely: each of a
  /// launch's tiles looked it up by the plans' addresses before, a fifth
  /// as long as its multiply.
  mutable std::optional<SparseLayout> sparse;
};

bool everyPlanListed(const std::vector<const KeptTile *> &tiles) {
  return std::all_of(tiles.begin(), tiles.end(), [](const KeptTile *tile) {
    return !tile->plan.columnStart.empty() && !tile->plan.tiny;
  });
}

/// Every K step's tile of B, kept (loaded where it is not yet); null when
/// one does not fit the caps. The list stays valid until the next call.
const KeptList *keepEveryTileOfB(const Buffer &bGm, std::vector<int64_t> &bOffsets,
                                 int32_t bKSlot, LoadMode bLoad, const Buffer &bTile,
                                 const std::vector<int64_t> &bParams, ElementType in,
                                 bool constant, int64_t kBegin, int64_t kEnd, int64_t kStep) {
  // The same tiles of B come back for every M tile of an N offset, and a
  // model's weights for every launch of its kernel: their list is kept per
  // thread, for the launch (B read-only in it), or while the constant tiles
  // stay (looking each K step's tile up again, a key and a locked hash
  // lookup per step, was a tenth of a depthwise convolution of 13 K steps).
  thread_local std::unordered_map<std::vector<int64_t>, KeptList, TileKeyHash> lists,
      constantLists;
  thread_local uint64_t listsForLaunch = 0, constantsForGeneration = 0;
  thread_local std::vector<int64_t> listKey;
  if (launchOfThread != listsForLaunch) {
    lists.clear();
    listsForLaunch = launchOfThread;
  }
  if (constantTilesGeneration() != constantsForGeneration) {
    constantLists.clear();
    constantsForGeneration = constantTilesGeneration();
  }
  auto &memo = constant ? constantLists : lists;
  bool remember = constant || launchOfThread != 0;
  if (remember) {
    listKey.assign({reinterpret_cast<int64_t>(bGm.data), static_cast<int64_t>(bLoad),
                    static_cast<int64_t>(in), constant, kBegin, kEnd, kStep, bKSlot,
                    bTile.sizes[0], bTile.sizes[1]});
    listKey.insert(listKey.end(), bGm.sizes, bGm.sizes + bGm.rank);
    listKey.insert(listKey.end(), bGm.strides, bGm.strides + bGm.rank);
    for (size_t d = 0; d < bOffsets.size(); ++d)
      listKey.push_back(static_cast<int32_t>(d) == bKSlot ? 0 : bOffsets[d]);
    listKey.insert(listKey.end(), bParams.begin(), bParams.end());
    auto found = memo.find(listKey);
    if (found != memo.end())
      return &found->second;
    if (constant && launchOfThread != 0) {
      // Kept for this launch when the constant tiles were full (below).
      listKey[3] = 0;
      found = lists.find(listKey);
      if (found != lists.end())
        return &found->second;
      listKey[3] = 1;
    }
  }
  thread_local KeptList fresh;
  std::vector<const KeptTile *> &tiles = fresh.tiles;
  tiles.clear();
  fresh.sparse.reset();
  bool everyTileConstant = true;
  for (int64_t kAt = kBegin; kAt < kEnd; kAt += kStep) {
    if (bKSlot >= 0)
      bOffsets[bKSlot] = kAt;
    bool loaded, keptAsConstant;
    const KeptTile *kept =
        keptTileOfB(bGm, bOffsets, bParams, bLoad, bTile, in, constant, loaded, keptAsConstant);
    if (!kept)
      return nullptr;
    everyTileConstant = everyTileConstant && keptAsConstant;
    tiles.push_back(kept);
  }
  fresh.bytes.clear();
  for (const KeptTile *kept : tiles)
    fresh.bytes.push_back(kept->bytes.data());
  fresh.listed = everyPlanListed(tiles);
  // A list holding a launch's tiles (the constant tiles were full) lasts
  // that launch only: the next one reuses their storage for other tiles.
  if (constant && !everyTileConstant) {
    if (launchOfThread == 0)
      return &fresh;
    listKey[3] = 0; // the key's `constant` element
    return &lists.emplace(listKey, fresh).first->second;
  }
  if (remember)
    return &memo.emplace(listKey, fresh).first->second;
  return &fresh;
}

/// One operand of a cube loop: its GM buffer and tile, how it is loaded,
/// which offset is K's (-1: none), its offsets and load parameters.
struct CubeOperand {
  Buffer gm, tile;
  LoadMode load;
  int32_t kSlot;
  std::vector<int64_t> &offsets, &params;
};

struct KRange {
  int64_t begin, end, step;
};

/// One ascendprec_rt_cube_loop call: what its operands allow decided once,
/// then the fast paths tried in order (each multiplies the whole loop, or
/// a prefix of its K steps, or nothing) and the steps left run one by one.
class CubeLoop {
public:
  CubeLoop(CubeOperand a, CubeOperand b, Buffer acc, KRange k, ElementType in,
           int32_t elementBytes, bool initAtZero, bool bReadOnly);
  void run();

private:
  bool multipliedSparsePatches();
  bool multipliedSpreadPatches();
  bool multipliedDirectPatches();
  /// K steps done from the start by mmadSteps (0: none).
  int64_t stepsInOnePass();
  int64_t multiplyInOnePass(const uint8_t *aData, LhsLayout layout, int64_t realK,
                            int64_t aRows, uint8_t *into);
  int64_t multiplySingleUseB(const uint8_t *aData, LhsLayout layout, int64_t realK,
                             int64_t aRows, uint8_t *into);
  void step(int64_t kAt, bool &mayHoldNegZero);
  /// Where the step's A is read from (`layout`, the K columns that count).
  const uint8_t *stepA(const KeptTile *kept, LhsLayout &layout, int64_t &depth);
  const KeptList *everyTileOfB() {
    return keepEveryTileOfB(b.gm, b.offsets, b.kSlot, b.load, b.tile, b.params, in, constantB,
                            kRange.begin, kRange.end, kRange.step);
  }
  /// Every step's tile of B, kept, as bytes; empty when one does not fit.
  const std::vector<const uint8_t *> &keptBytesOfB();

  CubeOperand a, b;
  Buffer acc;
  KRange kRange;
  ElementType in;
  int32_t elementBytes;
  bool initAtZero;
  int64_t m, k, n;
  PatchPlane plane;
  bool patches = false, pointwise = false, keepB = false, keepPlainB = false,
       constantB = false, singleUseB = false;
  uint64_t planEpoch = 0;
  /// A tile's rows past the map's last output position read zero patches:
  /// from +0, they all come to the same sums. The multiply runs `rows`
  /// (the map's `mapRows` and the first past them), copied to the others.
  int64_t mapRows = 0, rows = 0;
};

CubeLoop::CubeLoop(CubeOperand a, CubeOperand b, Buffer acc, KRange kRange, ElementType in,
                   int32_t elementBytes, bool initAtZero, bool bReadOnly)
    : a(a), b(b), acc(acc), kRange(kRange), in(in), elementBytes(elementBytes),
      initAtZero(initAtZero) {
  m = a.tile.sizes[0];
  k = a.tile.sizes[1];
  n = b.tile.sizes[1];
  // img2col tiles K-major, for 16- and 32-bit elements.
  patches = a.load == LoadMode::Img2Col && (elementBytes == 2 || elementBytes == 4) &&
            patchPlaneOf(a.gm, a.offsets, a.params, plane);
  // A 1x1 convolution, stride 1, unpadded, over whole planes: its patch
  // matrix is the map itself, K-major.
  pointwise = patches && plane.kernelH == 1 && plane.kernelW == 1 && plane.strideH == 1 &&
              plane.strideW == 1 && plane.padTop == 0 && plane.padLeft == 0 &&
              plane.outH == plane.height && plane.outW == plane.width &&
              plane.columnStride == 1 && plane.rowStride == plane.width;
  // Tiles of B the kernel only reads are kept, planned: the gathers for
  // as long as they are a model's weights, else for the launch.
  keepB = bReadOnly && b.tile.contiguous() &&
          (b.load == LoadMode::Transpose || b.load == LoadMode::TransposedFilter ||
           b.load == LoadMode::GroupedFilter);
  // Plain tiles for the launch only: every M tile of an N offset multiplies
  // the same tiles (read from GM instead, their rows lie GM's stride apart,
  // and each multiply copied or planned them again). Not across launches:
  // kept in the constant tiles, BERT-base's weights took 160 MB more at
  // the peak (the tiles' cap) for 0-6% of its run time (session 43).
  keepPlainB = bReadOnly && b.tile.contiguous() && b.load == LoadMode::Plain;
  // A model's weights: their tiles are kept across launches while the
  // constant tiles have room, else for the launch.
  constantB = keepB && isRememberedConstant(b.gm);
  // A kept tile's address names its contents for the launch, or for as
  // long as the constant tiles stay when B is a model's weights.
  planEpoch = constantB ? (constantTilesGeneration() | (uint64_t{1} << 63)) : launchOfThread;
  mapRows = rows = m;
  if (patches && initAtZero && kRange.begin == 0 && in != ElementType::I8) {
    mapRows = std::clamp<int64_t>(plane.outH * plane.outW - a.offsets[a.gm.rank - 3], 0, m);
    rows = std::min(mapRows + 1, m);
  }
  // A plain fp32 B that no other tile of A multiplies in the launch (A's
  // rows fit one tile) is read where it lies in GM: kept, each of its tiles
  // was copied and planned for one use (a recognizer's 120 x 6625
  // classifier weights, in 40 x 176 tiles: twice the multiply's time).
  singleUseB = !patches && b.load == LoadMode::Plain && in == ElementType::F32 &&
               b.kSlot >= 0 && a.gm.rank >= 2 &&
               a.gm.numElements() / std::max<int64_t>(1, a.gm.sizes[a.gm.rank - 1]) <= m;
}

const std::vector<const uint8_t *> &CubeLoop::keptBytesOfB() {
  thread_local std::vector<const uint8_t *> bytes;
  bytes.clear();
  if (const KeptList *list = everyTileOfB())
    bytes = list->bytes;
  return bytes;
}

/// A packed depthwise group's patches multiply straight from the map when
/// B's zeros can be dropped (SparsePatches.cpp): every step's tile of B
/// kept, with its nonzeros listed.
bool CubeLoop::multipliedSparsePatches() {
  if (!(patches && keepB && initAtZero && kRange.begin == 0 && kRange.step > 0))
    return false;
  thread_local std::vector<SparseStep> steps;
  steps.clear();
  const KeptList *list = everyTileOfB();
  for (size_t s = 0; list && list->listed && s < list->tiles.size(); ++s)
    steps.push_back({kRange.begin + static_cast<int64_t>(s) * kRange.step, &list->tiles[s]->plan});
  auto *sums = reinterpret_cast<float *>(acc.data);
  if (steps.empty() || static_cast<int64_t>(steps.size()) !=
                           (kRange.end - kRange.begin + kRange.step - 1) / kRange.step)
    return false;
  int64_t window = plane.kernelH * plane.kernelW;
  if (!list->sparse || list->sparse->window != window)
    layOutSparseSteps(steps, window, list->sparse.emplace());
  std::fill_n(sums, m * n, 0.0f);
  return multiplySparsePatches(in, a.gm.data, plane, a.offsets[a.gm.rank - 3], m, k, steps,
                               *list->sparse, sums, n);
}

/// A transposed convolution's spread input multiplies only where it holds
/// map values (SpreadPatches.cpp): every step's tile of B kept.
bool CubeLoop::multipliedSpreadPatches() {
  PatchPlane spread;
  if (!(a.load == LoadMode::Img2Col && !patches && keepB && initAtZero && kRange.begin == 0 &&
        kRange.step == k && (elementBytes == 2 || elementBytes == 4) &&
        patchPlaneOf(a.gm, a.offsets, a.params, spread, /*allowSpread=*/true) &&
        (spread.spreadH > 1 || spread.spreadW > 1)))
    return false;
  const std::vector<const uint8_t *> &tilesOfB = keptBytesOfB();
  return !tilesOfB.empty() &&
         multiplySpreadPatches(in, a.gm.data, spread, a.offsets[a.gm.rank - 3], m, k, tilesOfB,
                               reinterpret_cast<float *>(acc.data), n);
}

/// A convolution with stride 1 along W multiplies from a padded copy of
/// its map's rows, the vector across output positions (DirectPatches.cpp):
/// every step's tile of B kept. A 1x1 convolution over whole planes reads
/// its patches in place instead, unless its N is one tile of 16 (the
/// multiply across N then runs one vector, and the detector's 48 -> 12 1x1
/// convolution took 3.6 ms that way, 0.8 ms directly; with wider N the
/// in-place multiply was faster). Not for maps under 8 columns wide: each
/// vector then holds one output row's few positions (a squeeze-excitation's
/// 1x1 convolution on a 1x1 map filled one lane in 16 and took 0.4 ms of
/// PP-OCR's recognizer).
bool CubeLoop::multipliedDirectPatches() {
  if (!(patches && (!pointwise || n == 16) && keepB && initAtZero && kRange.begin == 0 &&
        kRange.step == k && plane.strideW == 1 && plane.outW >= kDirectPatchesFromWidth))
    return false;
  const std::vector<const uint8_t *> &tilesOfB = keptBytesOfB();
  return !tilesOfB.empty() &&
         multiplyDirectPatches(in, a.gm.data, plane, a.offsets[a.gm.rank - 3], m, k, tilesOfB,
                               reinterpret_cast<float *>(acc.data), n, planEpoch);
}

/// A plain fp32 B read where it lies in GM (singleUseB), every step of
/// `realK` at once; 0 when its tiles are not evenly strided rows.
int64_t CubeLoop::multiplySingleUseB(const uint8_t *aData, LhsLayout layout, int64_t realK,
                                     int64_t aRows, uint8_t *into) {
  thread_local std::vector<const uint8_t *> inGm;
  thread_local std::vector<const RhsPlan *> unplanned;
  static const RhsPlan kUnplanned;
  inGm.clear();
  int64_t ldb = 0;
  for (int64_t s = 0; s < realK / k; ++s) {
    b.offsets[b.kSlot] = kRange.begin + s * kRange.step;
    InPlace at;
    if (!readInPlace(b.gm, b.offsets, k, n, /*transposed=*/false, at) || at.column != 1 ||
        (ldb != 0 && at.row != ldb))
      break;
    ldb = at.row;
    inGm.push_back(at.start);
  }
  unplanned.assign(inGm.size(), &kUnplanned); // (an fp32 B needs no plan)
  if (static_cast<int64_t>(inGm.size()) == realK / k && ldb > 0 &&
      mmadSteps(in, aData, layout, inGm, unplanned, into, aRows, n, k, k, ldb))
    return realK / k;
  return 0;
}

/// The K steps of A (read where it lies, `layout`; `realK` columns real)
/// times every step's tile of B, kept, in one pass that keeps blocks of
/// sums in registers across steps (mmadSteps; the tile's sums went through
/// memory once per step of 32 to 80). The steps within realK go, and a last
/// step that reaches past it when its rows of B there are +0 (K's padding,
/// whose +0 products mmadSteps applies). Returns the steps done (0: none,
/// the step loop multiplies them).
int64_t CubeLoop::multiplyInOnePass(const uint8_t *aData, LhsLayout layout, int64_t realK,
                                    int64_t aRows, uint8_t *into) {
  if (singleUseB && realK % k == 0)
    if (int64_t done = multiplySingleUseB(aData, layout, realK, aRows, into))
      return done;
  const KeptList *list = everyTileOfB();
  if (!list)
    return 0;
  auto total = static_cast<int64_t>(list->tiles.size());
  int64_t whole = realK / k, partial = realK - whole * k;
  int64_t steps = std::min(total, whole), lastK = k;
  if (total > whole && partial > 0 &&
      tileRowsAreZero(list->tiles[whole], partial, k, n, elementBytes)) {
    steps = whole + 1;
    lastK = partial;
  }
  if (steps <= 0)
    return 0;
  thread_local std::vector<const uint8_t *> bytes;
  thread_local std::vector<const RhsPlan *> plans;
  bytes.assign(list->bytes.begin(), list->bytes.begin() + steps);
  plans.clear();
  for (int64_t s = 0; s < steps; ++s)
    plans.push_back(&list->tiles[s]->plan);
  return mmadSteps(in, aData, layout, bytes, plans, into, aRows, n, k, lastK) ? steps : 0;
}

int64_t CubeLoop::stepsInOnePass() {
  if (!(initAtZero && kRange.begin == 0 && kRange.step == k && k > 0))
    return 0;
  // A 1x1 convolution's map, K-major (a channel's plane per K index).
  if (patches && pointwise && keepB && rows == m &&
      a.offsets[a.gm.rank - 3] + m <= plane.outH * plane.outW)
    return multiplyInOnePass(a.gm.data + (plane.base + a.offsets[a.gm.rank - 3]) * elementBytes,
                             {1, plane.channelStride}, plane.channels, m, acc.data);
  // A matmul's A where its tile lies inside GM (rows GM's row stride apart,
  // K contiguous), B's tiles kept for the launch (BERT's matmuls walk K in
  // steps of 64 or 72). A tile past A's last row (M not a multiple of the
  // tile's) multiplies its rows inside A there, and its rows past the end
  // read zeros: their sums (0 x B in K order from +0) are worked out once,
  // from a row of zeros, and copied (the tile went through the loop step
  // by step, gathering A and multiplying its zero rows: a recognizer's
  // 40-row classifier matmul in 48-row tiles ran at a third of the rate).
  if (patches || a.load != LoadMode::Plain || !(keepB || keepPlainB) ||
      a.kSlot != a.gm.rank - 1 || a.gm.rank < 2)
    return 0;
  a.offsets[a.kSlot] = kRange.begin;
  int64_t realK = a.gm.sizes[a.gm.rank - 1];
  int64_t aRows = std::clamp<int64_t>(a.gm.sizes[a.gm.rank - 2] - a.offsets[a.gm.rank - 2], 0, m);
  InPlace first;
  if (aRows <= 0 || !readInPlace(a.gm, a.offsets, aRows, k, /*transposed=*/false, first) ||
      first.column != 1)
    return 0;
  int64_t done = multiplyInOnePass(first.start, {first.row, 1}, realK, aRows, acc.data);
  if (done > 0 && aRows < m) {
    thread_local std::vector<uint8_t> zeros;
    zeros.assign(realK * elementBytes, 0);
    if (multiplyInOnePass(zeros.data(), {realK, 1}, realK, 1,
                          acc.data + aRows * n * sizeof(float)) != done)
      return 0; // the zero row went otherwise: the whole tile by the loop
    mapRows = aRows;
    rows = aRows + 1;
  }
  return done;
}

const uint8_t *CubeLoop::stepA(const KeptTile *kept, LhsLayout &layout, int64_t &depth) {
  thread_local std::vector<uint8_t> patchPanel;
  layout = {a.tile.strides[0], a.tile.strides[1]};
  InPlace place;
  if (patches && pointwise && a.offsets[a.gm.rank - 3] + rows <= plane.outH * plane.outW &&
      a.offsets[a.gm.rank - 2] + k <= plane.channels) {
    // A 1x1 convolution's patch column is a run of its channel's plane:
    // the multiply reads the map where it is.
    layout = {1, plane.channelStride};
    return a.gm.data + (plane.base + a.offsets[a.gm.rank - 2] * plane.channelStride +
                        a.offsets[a.gm.rank - 3]) * elementBytes;
  }
  if (patches) {
    patchPanel.resize(m * k * elementBytes);
    int64_t m0 = a.offsets[a.gm.rank - 3], k0 = a.offsets[a.gm.rank - 2];
    // Columns past the last channel are zero (padding). When B's rows
    // there are zero too, their products are +-0, which change no sum of
    // an accumulator that started from +0 (it never holds -0): the
    // multiply stops at the last real column, and those columns are not
    // gathered (a depthwise group's tile is 9 real columns of 48).
    int64_t realColumns =
        std::clamp<int64_t>(plane.channels * plane.kernelH * plane.kernelW - k0, 0, k);
    // (A sum can round to -0 when a factor is tiny: such a tile keeps
    // every column, see CubeRuntime.cpp.)
    if (initAtZero && kept && !kept->plan.dense && !kept->plan.tiny &&
        (kept->plan.keptK.empty() || kept->plan.keptK.back() < realColumns))
      depth = realColumns;
    if (elementBytes == 2)
      gatherPatchesKMajor(reinterpret_cast<const uint16_t *>(a.gm.data), plane, m0, k0, rows,
                          depth, reinterpret_cast<uint16_t *>(patchPanel.data()));
    else
      gatherPatchesKMajor(reinterpret_cast<const uint32_t *>(a.gm.data), plane, m0, k0, rows,
                          depth, reinterpret_cast<uint32_t *>(patchPanel.data()));
    if (depth < k && holdsTiny(in, patchPanel.data(), rows * depth)) {
      // The dropped columns are zeros: written out, the multiply sees K.
      std::memset(patchPanel.data() + rows * depth * elementBytes, 0,
                  (k - depth) * rows * elementBytes);
      depth = k;
    }
    layout = {1, rows};
    return patchPanel.data();
  }
  if ((a.load == LoadMode::Plain || a.load == LoadMode::Transpose) &&
      readInPlace(a.gm, a.offsets, m, k, a.load == LoadMode::Transpose, place)) {
    // Wholly inside GM: the multiply reads A where it is.
    layout = {place.row, place.column};
    return place.start;
  }
  loadTile(a.gm, a.tile, a.offsets, a.params, a.load);
  return a.tile.data;
}

void CubeLoop::step(int64_t kAt, bool &mayHoldNegZero) {
  if (a.kSlot >= 0)
    a.offsets[a.kSlot] = kAt;
  if (b.kSlot >= 0)
    b.offsets[b.kSlot] = kAt;
  bool init = initAtZero && kAt == 0;
  bool loaded = false;
  bool keptAsConstant;
  const KeptTile *kept = keepB || keepPlainB
                             ? keptTileOfB(b.gm, b.offsets, b.params, b.load, b.tile, in,
                                           constantB, loaded, keptAsConstant)
                             : nullptr;
  // A plain tile of B wholly inside GM is read in place (rows of GM).
  InPlace bPlace;
  bool bInPlace = !kept && !loaded && b.load == LoadMode::Plain &&
                  readInPlace(b.gm, b.offsets, k, n, /*transposed=*/false, bPlace) &&
                  bPlace.column == 1;
  if (!kept && !bInPlace && !loaded)
    loadTile(b.gm, b.tile, b.offsets, b.params, b.load);
  LhsLayout layout{};
  int64_t depth = k;
  const uint8_t *aData = stepA(kept, layout, depth);
  if (kept)
    mmadTile(in, aData, layout, kept->bytes.data(), n, kept->plan, acc.data, rows, n, depth, init,
             &mayHoldNegZero);
  else if (bInPlace)
    // Wholly inside GM, the tile holds no padding: it multiplies whole,
    // without scanning it for zero rows and columns (the same bits either
    // way; the scan's strided walk of B's last column cost 5% of BERT's
    // run).
    mmadTile(in, aData, layout, bPlace.start, bPlace.row, RhsPlan(), acc.data, rows, n, k, init,
             &mayHoldNegZero);
  else
    mmadTile(in, aData, layout, b.tile.data, n, acc.data, rows, n, k, init, &mayHoldNegZero);
}

void CubeLoop::run() {
  if (multipliedSparsePatches() || multipliedSpreadPatches() || multipliedDirectPatches())
    return;
  // Whether the accumulator may hold -0 (only a tiny product rounds a sum
  // to -0, see CubeRuntime.cpp): unknown until a step initializes it.
  bool mayHoldNegZero = true;
  int64_t kFrom = kRange.begin + kRange.step * stepsInOnePass();
  for (int64_t kAt = kFrom; kAt < kRange.end; kAt += kRange.step)
    step(kAt, mayHoldNegZero);
  auto *sums = reinterpret_cast<float *>(acc.data);
  for (int64_t i = rows; i < m; ++i)
    std::memcpy(sums + i * n, sums + mapRows * n, n * sizeof(float));
}

} // namespace

uint64_t ascendprec::runtime::newLaunchId() { return ++launchesStarted; }

void ascendprec::runtime::setLaunchId(uint64_t id) { launchOfThread = id; }

extern "C" {

void ascendprec_rt_block_begin() {
  if (launchOfThread == 0 || keptForLaunch != launchOfThread) {
    readOnlyTiles.clear();
    keptForLaunch = launchOfThread;
  }
}

/// for (k = kBegin; k < kEnd; k += kStep) { load A -> aTile; load B -> bTile;
/// mmad aTile, bTile, acc init(initAtZero && k == 0) }, where the loads
/// read at their offsets with offset [kSlot] = k (no K offset: slot -1).
void ascendprec_rt_cube_loop(int64_t aRank, void *aDesc, int64_t aOffRank, void *aOffDesc,
                             int64_t aParamRank, void *aParamDesc, int64_t bRank, void *bDesc,
                             int64_t bOffRank, void *bOffDesc, int64_t bParamRank,
                             void *bParamDesc, int64_t aTileRank, void *aTileDesc,
                             int64_t bTileRank, void *bTileDesc, int64_t accRank, void *accDesc,
                             int64_t kBegin, int64_t kEnd, int64_t kStep, int32_t aMode,
                             int32_t aKSlot, int32_t bMode, int32_t bKSlot, int32_t inType,
                             int32_t elementBytes, int32_t initAtZero, int32_t bReadOnly) {
  thread_local std::vector<int64_t> aOffsets, bOffsets, aParams, bParams;
  readInt64s(aOffRank, aOffDesc, aOffsets);
  readInt64s(bOffRank, bOffDesc, bOffsets);
  readInt64s(aParamRank, aParamDesc, aParams);
  readInt64s(bParamRank, bParamDesc, bParams);
  CubeLoop loop(
      {bufferOf(aRank, aDesc, elementBytes), bufferOf(aTileRank, aTileDesc, elementBytes),
       static_cast<LoadMode>(aMode), aKSlot, aOffsets, aParams},
      {bufferOf(bRank, bDesc, elementBytes), bufferOf(bTileRank, bTileDesc, elementBytes),
       static_cast<LoadMode>(bMode), bKSlot, bOffsets, bParams},
      bufferOf(accRank, accDesc, 4), {kBegin, kEnd, kStep}, typeOf(inType), elementBytes,
      initAtZero != 0, bReadOnly != 0);
  loop.run();
}

} // extern "C"
