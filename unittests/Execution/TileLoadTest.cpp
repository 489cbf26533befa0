//===- TileLoadTest.cpp - the MTE loads against an element-by-element oracle -===//
//
// ascendprec_rt_load copies a tile out of GM row by row (plain) or through
// register-blocked transposes (transposed), zero-filling only what lies
// past GM's edge. Each load here is checked element by element against the
// op's definition: tile [i, j] reads GM [o_r + i, o_c + j] (plain) or
// [o_r + j, o_c + i] (transposed), 0 outside GM; over tiles inside GM, at
// its edges, with GM strided, and over stale tile contents (a load must
// overwrite every element). Broadcast loads likewise, against the
// multi-index of each flat element.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/RuntimeBuffers.h"
#include "RuntimeMemref.h"

#include "AscendPrec/Runtime/KernelRuntime.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace ascendprec::runtime;
using ascendprec::runtime::testing::Memref;

namespace {

/// GM [batch, rows, cols] of distinct values, viewed with `columnStride`
/// elements between columns (1: row-major).
struct Gm {
  int64_t batch, rows, cols, columnStride;
  std::vector<float> data;
  Gm(int64_t batch, int64_t rows, int64_t cols, int64_t columnStride)
      : batch(batch), rows(rows), cols(cols), columnStride(columnStride),
        data(batch * rows * cols * columnStride) {
    for (size_t i = 0; i < data.size(); ++i)
      data[i] = static_cast<float>(i) + 0.5f;
  }
  float at(int64_t b, int64_t r, int64_t c) const {
    if (r < 0 || r >= rows || c < 0 || c >= cols)
      return 0.0f;
    return data[((b * rows + r) * cols + c) * columnStride];
  }
  Memref memref() {
    return Memref(data.data(), {batch, rows, cols},
                  {rows * cols * columnStride, cols * columnStride, columnStride});
  }
};

void checkLoad(Gm &gm, int64_t b, int64_t r0, int64_t c0, int64_t tileRows, int64_t tileCols,
               bool transposed) {
  std::vector<float> tile(tileRows * tileCols, -7.0f); // stale contents
  Memref source = gm.memref(), target(tile.data(), {tileRows, tileCols});
  std::vector<int64_t> offsets = {b, r0, c0}, none;
  Memref off(offsets.data(), {3}), par(none.data(), {0});
  ascendprec_rt_load(3, source.descriptor(), 2, target.descriptor(), 1, off.descriptor(), 1,
                     par.descriptor(), 4,
                     static_cast<int32_t>(transposed ? LoadMode::Transpose : LoadMode::Plain));
  std::string what = std::string(transposed ? "transposed" : "plain") + " tile at (" +
                     std::to_string(b) + ", " + std::to_string(r0) + ", " +
                     std::to_string(c0) + ")";
  for (int64_t i = 0; i < tileRows; ++i)
    for (int64_t j = 0; j < tileCols; ++j) {
      float wanted = transposed ? gm.at(b, r0 + j, c0 + i) : gm.at(b, r0 + i, c0 + j);
      ASSERT_EQ(tile[i * tileCols + j], wanted) << what << ", element [" << i << ", " << j << "]";
    }
}

TEST(TileLoad, PlainTilesInsideAndAtTheEdges) {
  for (int64_t stride : {1, 3}) {
    Gm gm(2, 21, 19, stride);
    checkLoad(gm, 1, 0, 0, 16, 16, false);  // inside
    checkLoad(gm, 0, 3, 2, 16, 16, false);  // inside, offset
    checkLoad(gm, 1, 16, 0, 16, 16, false); // past the last row
    checkLoad(gm, 0, 0, 16, 16, 16, false); // past the last column
    checkLoad(gm, 1, 16, 16, 16, 16, false);
  }
}

TEST(TileLoad, TransposedTilesInsideAndAtTheEdges) {
  // Tile sizes that are and are not multiples of the 8 x 8 blocks.
  for (int64_t stride : {1, 2}) {
    Gm gm(2, 37, 45, stride);
    checkLoad(gm, 1, 0, 0, 16, 16, true);
    checkLoad(gm, 0, 5, 3, 24, 13, true);
    checkLoad(gm, 1, 32, 0, 16, 16, true);  // GM rows run out: tile columns past them
    checkLoad(gm, 0, 0, 40, 16, 16, true);  // GM columns run out: tile rows past them
    checkLoad(gm, 1, 30, 40, 16, 16, true); // both
  }
}

/// A broadcast load of GM `gmShape` (row-major) to `shape`, flattened, at
/// flat offset `start` into a tile of `tileSize`: element t is GM's element
/// at the multi-index of start + t, each GM dimension of 1 (or missing,
/// leading) read at 0; 0 past the shape's end.
void checkBroadcast(const std::vector<int64_t> &gmShape, const std::vector<int64_t> &shape,
                    int64_t start, int64_t tileSize) {
  int64_t gmCount = 1, total = 1;
  for (int64_t dim : gmShape)
    gmCount *= dim;
  for (int64_t dim : shape)
    total *= dim;
  std::vector<float> data(gmCount), tile(tileSize, -7.0f);
  for (int64_t i = 0; i < gmCount; ++i)
    data[i] = static_cast<float>(i) + 0.25f;
  Memref source(data.data(), gmShape), target(tile.data(), {tileSize});
  std::vector<int64_t> offsets = {start}, params = shape;
  Memref off(offsets.data(), {1}), par(params.data(), {static_cast<int64_t>(params.size())});
  ascendprec_rt_load(static_cast<int64_t>(gmShape.size()), source.descriptor(), 1,
                     target.descriptor(), 1, off.descriptor(), 1, par.descriptor(), 4,
                     static_cast<int32_t>(LoadMode::Broadcast));
  int64_t lead = static_cast<int64_t>(shape.size() - gmShape.size());
  for (int64_t t = 0; t < tileSize; ++t) {
    float wanted = 0.0f;
    if (start + t < total) {
      int64_t flat = start + t, at = 0, scale = 1;
      for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
        int64_t i = flat % shape[d];
        flat /= shape[d];
        if (d >= lead) {
          int64_t g = d - lead;
          at += (gmShape[g] == 1 ? 0 : i) * scale;
          scale *= gmShape[g];
        }
      }
      wanted = data[at];
    }
    ASSERT_EQ(tile[t], wanted) << "element " << t << " of the tile at " << start;
  }
}

TEST(TileLoad, BroadcastRepeatsRunsAndCopiesContiguousOnes) {
  // A per-channel scale over NCHW (runs of H*W), from the start, mid-run
  // and over the end (the tail zero).
  checkBroadcast({2, 6, 1, 1}, {2, 6, 5, 7}, 0, 128);
  checkBroadcast({2, 6, 1, 1}, {2, 6, 5, 7}, 33, 128);
  checkBroadcast({2, 6, 1, 1}, {2, 6, 5, 7}, 400, 128);
  // A bias over the last axis, GM of lower rank; a middle axis repeated.
  checkBroadcast({7}, {2, 6, 5, 7}, 19, 100);
  checkBroadcast({1, 6, 1, 7}, {2, 6, 5, 7}, 51, 200);
  checkBroadcast({2, 1, 5, 7}, {2, 6, 5, 7}, 0, 420);
  // A scalar.
  checkBroadcast({1}, {3, 4}, 2, 16);
}

} // namespace
