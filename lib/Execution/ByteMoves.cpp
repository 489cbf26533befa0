//===- ByteMoves.cpp - copies over raw bytes, element by element size -===//

#include "ByteMoves.h"

#include "DmaPlan.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>

using llvm::ArrayRef;
using llvm::SmallVector;
using ascendprec::runtime::ElementType;
using ascendprec::runtime::HostTensor;

namespace ascendprec::exec::dma {

/// Row-major strides in bytes.
SmallVector<int64_t, 6> byteStrides(ArrayRef<int64_t> shape, size_t elementSize) {
  SmallVector<int64_t, 6> strides(shape.size());
  int64_t stride = static_cast<int64_t>(elementSize);
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= shape[d];
  }
  return strides;
}

namespace {

template <size_t N>
void copyElements(uint8_t *dst, const uint8_t *src, int64_t n, int64_t dstStep, int64_t srcStep) {
  for (int64_t i = 0; i < n; ++i, dst += dstStep, src += srcStep)
    std::memcpy(dst, src, N);
}

/// `n` runs of `run` bytes, stepping `dstStep` / `srcStep` bytes.
void copyLine(uint8_t *dst, const uint8_t *src, size_t run, int64_t n, int64_t dstStep,
              int64_t srcStep) {
  int64_t bytes = static_cast<int64_t>(run);
  if (dstStep == bytes && srcStep == bytes) {
    std::memcpy(dst, src, run * n);
    return;
  }
  switch (run) {
  case 1: return copyElements<1>(dst, src, n, dstStep, srcStep);
  case 2: return copyElements<2>(dst, src, n, dstStep, srcStep);
  case 4: return copyElements<4>(dst, src, n, dstStep, srcStep);
  case 8: return copyElements<8>(dst, src, n, dstStep, srcStep);
  default:
    for (int64_t i = 0; i < n; ++i, dst += dstStep, src += srcStep)
      std::memcpy(dst, src, run);
  }
}

/// Calls fn(dstOffset, srcOffset) for every point of the box `axes`
/// (row-major order).
template <typename Fn> void forEachOffset(ArrayRef<Axis> axes, Fn fn) {
  size_t rank = axes.size();
  SmallVector<int64_t, 8> index(rank, 0);
  int64_t dst = 0, src = 0;
  while (true) {
    fn(dst, src);
    size_t k = rank;
    for (; k-- > 0;) {
      if (++index[k] < axes[k].size) {
        dst += axes[k].dst;
        src += axes[k].src;
        break;
      }
      dst -= axes[k].dst * (axes[k].size - 1);
      src -= axes[k].src * (axes[k].size - 1);
      index[k] = 0;
    }
    if (k == static_cast<size_t>(-1))
      return;
  }
}

} // namespace

/// dst[i] = src[sum(i_k * srcStride_k)] for every point i of the box. `dst`
/// and `src` point at the box's first element.
void stridedCopy(uint8_t *dst, const uint8_t *src, size_t elementSize, ArrayRef<Axis> axes) {
  SmallVector<Axis, 8> kept;
  for (const Axis &axis : axes) {
    if (axis.size == 0)
      return;
    if (axis.size != 1)
      kept.push_back(axis);
  }
  // Merge an axis into the next inner one where both sides step across the
  // whole inner axis.
  SmallVector<Axis, 8> merged;
  for (size_t k = kept.size(); k-- > 0;) {
    const Axis &axis = kept[k];
    if (!merged.empty()) {
      Axis &inner = merged.back();
      if (axis.dst == inner.dst * inner.size && axis.src == inner.src * inner.size) {
        inner.size *= axis.size;
        continue;
      }
    }
    merged.push_back(axis);
  }
  std::reverse(merged.begin(), merged.end());
  int64_t bytes = static_cast<int64_t>(elementSize);
  size_t run = elementSize;
  if (!merged.empty() && merged.back().dst == bytes && merged.back().src == bytes) {
    run = elementSize * merged.back().size;
    merged.pop_back();
  }
  if (merged.empty()) {
    std::memcpy(dst, src, run);
    return;
  }
  Axis inner = merged.pop_back_val();
  // A transposition (the output's inner axis reads across the source while
  // another axis reads along it): copy in square tiles so both sides stay in
  // cache.
  constexpr int64_t kTile = 32;
  std::optional<size_t> across;
  if (run == elementSize && inner.dst == bytes && inner.size >= 8)
    for (size_t k = 0; k < merged.size(); ++k)
      if (merged[k].src == bytes && merged[k].size >= 8)
        across = k;
  if (!across) {
    forEachOffset(merged, [&](int64_t d, int64_t s) {
      copyLine(dst + d, src + s, run, inner.size, inner.dst, inner.src);
    });
    return;
  }
  Axis outer = merged[*across];
  merged.erase(merged.begin() + *across);
  forEachOffset(merged, [&](int64_t d, int64_t s) {
    for (int64_t a0 = 0; a0 < outer.size; a0 += kTile) {
      int64_t a1 = std::min(outer.size, a0 + kTile);
      for (int64_t b0 = 0; b0 < inner.size; b0 += kTile) {
        int64_t n = std::min(inner.size, b0 + kTile) - b0;
        for (int64_t a = a0; a < a1; ++a)
          copyLine(dst + d + a * outer.dst + b0 * inner.dst,
                   src + s + a * outer.src + b0 * inner.src, run, n, inner.dst, inner.src);
      }
    }
  });
}

/// dst (dense row-major over `sizes`) element i reads src at byte offset
/// sum(tables[k][i_k]); an entry of -1 leaves the element alone.
namespace {

template <typename T>
void gatherElements(uint8_t *row, const uint8_t *source, ArrayRef<int64_t> table) {
  auto *to = reinterpret_cast<T *>(row);
  for (size_t i = 0; i < table.size(); ++i)
    if (table[i] >= 0)
      std::memcpy(to + i, source + table[i], sizeof(T));
}

/// One output row from `source` by the innermost table (byte offsets, -1
/// for an element left as it is), elements of `bytes` 1, 2, 4 or 8.
void gatherRow(uint8_t *row, const uint8_t *source, ArrayRef<int64_t> table, int64_t bytes) {
  switch (bytes) {
  case 1: return gatherElements<uint8_t>(row, source, table);
  case 2: return gatherElements<uint16_t>(row, source, table);
  case 4: return gatherElements<uint32_t>(row, source, table);
  default: return gatherElements<uint64_t>(row, source, table);
  }
}

} // namespace

void indexMapCopy(uint8_t *dst, const uint8_t *src, size_t elementSize, ArrayRef<int64_t> sizes,
                  ArrayRef<SmallVector<int64_t, 0>> tables) {
  if (sizes.empty()) {
    std::memcpy(dst, src, elementSize);
    return;
  }
  if (llvm::is_contained(sizes, 0))
    return;
  size_t rank = sizes.size();
  int64_t bytes = static_cast<int64_t>(elementSize);
  // The innermost axis as contiguous segments.
  struct Segment {
    int64_t dst, src, bytes;
  };
  SmallVector<Segment, 8> segments;
  const SmallVector<int64_t, 0> &last = tables[rank - 1];
  for (int64_t i = 0, n = sizes[rank - 1]; i < n;) {
    if (last[i] < 0) {
      ++i;
      continue;
    }
    int64_t j = i + 1;
    while (j < n && last[j] == last[j - 1] + bytes)
      ++j;
    segments.push_back({i * bytes, last[i], (j - i) * bytes});
    i = j;
  }
  int64_t rowBytes = sizes[rank - 1] * bytes;
  // Mostly single elements (a nearest upsampling repeats each one): a
  // typed gather instead of a library call per element.
  bool gather = segments.size() * 2 > static_cast<size_t>(sizes[rank - 1]) &&
                (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8);
  SmallVector<int64_t, 8> index(rank - 1, 0);
  uint8_t *row = dst;
  int64_t previous = -1; // the source offset of the row before, if copied
  while (true) {
    int64_t offset = 0;
    bool skip = false;
    for (size_t k = 0; k + 1 < rank && !skip; ++k) {
      int64_t entry = tables[k][index[k]];
      skip = entry < 0;
      offset += entry;
    }
    if (skip) {
      previous = -1;
    } else if (offset == previous) {
      // The same source row again (a row repeated by an upsampling).
      std::memcpy(row, row - rowBytes, rowBytes);
    } else {
      if (gather)
        gatherRow(row, src + offset, last, bytes);
      else
        for (const Segment &segment : segments)
          std::memcpy(row + segment.dst, src + offset + segment.src, segment.bytes);
      previous = offset;
    }
    row += rowBytes;
    size_t k = rank - 1;
    for (; k-- > 0;) {
      if (++index[k] < sizes[k])
        break;
      index[k] = 0;
    }
    if (k == static_cast<size_t>(-1))
      return;
  }
}

/// Repeats the `size`-byte pattern `count` times from `dst`.
void fillPattern(uint8_t *dst, const uint8_t *pattern, size_t size, int64_t count) {
  if (count <= 0)
    return;
  std::memcpy(dst, pattern, size);
  size_t done = size, total = size * static_cast<size_t>(count);
  while (done < total) {
    size_t chunk = std::min(done, total - done);
    std::memcpy(dst + done, dst, chunk);
    done += chunk;
  }
}

/// `value` as one element of `type`, rounded to nearest even (integers:
/// rounded and clamped), as the device stores a value it makes.
Bytes encode(double value, ElementType type) {
  HostTensor scalar(type, {});
  scalar.set(0, value);
  Bytes bytes{};
  std::memcpy(bytes.data(), scalar.data(), scalar.byteSize());
  return bytes;
}

/// Element `index` of `source` as one element of `type`: the same bits for
/// the same type, exact between integer types (clamped), rounded to nearest
/// even otherwise.
Bytes convertElement(const HostTensor &source, int64_t index, ElementType type) {
  Bytes bytes{};
  if (source.type() == type) {
    size_t size = ascendprec::runtime::elementBytes(type);
    std::memcpy(bytes.data(), source.data() + index * size, size);
    return bytes;
  }
  HostTensor scalar(type, {});
  if (isIndexType(source.type()) && isIndexType(type))
    scalar.setInt(0, source.getInt(index));
  else
    scalar.set(0, source.get(index));
  std::memcpy(bytes.data(), scalar.data(), scalar.byteSize());
  return bytes;
}

/// An integer element exactly (unsigned values beyond int64 saturate).
int64_t readIndex(const uint8_t *data, ElementType type, int64_t i) {
  auto load = [&](auto tag) {
    decltype(tag) value;
    std::memcpy(&value, data + i * sizeof(value), sizeof(value));
    return value;
  };
  switch (type) {
  case ElementType::I8: return load(int8_t());
  case ElementType::I16: return load(int16_t());
  case ElementType::I32: return load(int32_t());
  case ElementType::I64: return load(int64_t());
  case ElementType::U8: return load(uint8_t());
  case ElementType::U16: return load(uint16_t());
  case ElementType::U32: return load(uint32_t());
  case ElementType::U64: {
    uint64_t value = load(uint64_t());
    return value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
               ? std::numeric_limits<int64_t>::max()
               : static_cast<int64_t>(value);
  }
  default: return 0;
  }
}

std::string numberText(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}

int64_t product(ArrayRef<int64_t> dims) {
  int64_t count = 1;
  for (int64_t dim : dims)
    count *= dim;
  return count;
}

} // namespace ascendprec::exec::dma
