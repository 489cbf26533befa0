//===- ShapeArithmetic.cpp - sizes the ascend ops' shapes follow ----------===//

#include "AscendPrec/Dialect/Ascend/IR/ShapeArithmetic.h"

#include <algorithm>

int64_t ascendprec::ascend::stridedSliceLength(int64_t size, int64_t begin, int64_t end,
                                         int64_t stride) {
  auto normalize = [&](int64_t index, int64_t low, int64_t high) {
    // `index + size` cannot overflow for an index below -size: clamp first.
    if (index < 0)
      index = index < -size ? low : index + size;
    return std::clamp(index, low, high);
  };
  if (stride > 0) {
    begin = normalize(begin, 0, size);
    end = normalize(end, 0, size);
    return end > begin ? (end - begin + stride - 1) / stride : 0;
  }
  begin = normalize(begin, -1, size - 1);
  end = normalize(end, -1, size - 1);
  return begin > end ? (begin - end - stride - 1) / -stride : 0;
}
