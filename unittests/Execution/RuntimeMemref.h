//===- RuntimeMemref.h - memref descriptors for runtime entry points ------===//
//
// The runtime's C entry points take memrefs as MLIR's ranked descriptors;
// tests build them over their own buffers with this.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_UNITTESTS_EXECUTION_RUNTIMEMEMREF_H
#define ASCENDPREC_UNITTESTS_EXECUTION_RUNTIMEMEMREF_H

#include <cstdint>
#include <vector>

namespace ascendprec::runtime::testing {

/// A memref descriptor {allocated, aligned, offset, sizes, strides} of a
/// row-major buffer of `sizes`, or of explicit `strides`.
struct Memref {
  std::vector<int64_t> fields;
  int64_t rank;
  Memref(void *data, std::vector<int64_t> sizes, std::vector<int64_t> strides = {})
      : rank(static_cast<int64_t>(sizes.size())) {
    if (strides.empty()) {
      strides.assign(sizes.size(), 1);
      for (int64_t d = rank - 2; d >= 0; --d)
        strides[d] = strides[d + 1] * sizes[d + 1];
    }
    auto address = reinterpret_cast<int64_t>(data);
    fields = {address, address, 0};
    fields.insert(fields.end(), sizes.begin(), sizes.end());
    fields.insert(fields.end(), strides.begin(), strides.end());
  }
  void *descriptor() { return fields.data(); }
};

} // namespace ascendprec::runtime::testing

#endif // ASCENDPREC_UNITTESTS_EXECUTION_RUNTIMEMEMREF_H
