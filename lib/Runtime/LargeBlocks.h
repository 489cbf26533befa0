//===- LargeBlocks.h - storage of large host tensors ----------------------===//
//
// Internal to lib/Runtime (HostTensor.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_RUNTIME_LARGEBLOCKS_H
#define ASCENDPREC_LIB_RUNTIME_LARGEBLOCKS_H

#include <cstddef>
#include <cstdint>
#include <memory>

// Builds with AddressSanitizer, which checks heap blocks only: they keep
// tensors on the heap and fill uninitialized ones (HostTensor.cpp).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASCENDPREC_ADDRESS_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(ASCENDPREC_ADDRESS_SANITIZER)
#define ASCENDPREC_ADDRESS_SANITIZER 1
#endif

namespace ascendprec::runtime::detail {

/// Page-aligned storage of `bytes` (at least kLargeBlockBytes) mapped from
/// the kernel, reusing freed blocks, zero-filled when `zeroed` (else as a
/// reused block was left: fresh pages are zero either way), or null where
/// the host does not map (not Linux, AddressSanitizer builds) or the
/// mapping fails: the caller then takes the heap.
std::shared_ptr<uint8_t> allocateLarge(size_t bytes, bool zeroed);

/// `n` rounded up to one of four values per doubling (a multiple of a
/// quarter of the power of two at or below it): at most a quarter more.
/// Sizes under 8 are their own class.
size_t quarterStepCeil(size_t n);

/// The length of the block that holds `bytes`: a multiple of 256 KiB up to
/// 4 MiB, then one of four classes per doubling (at most a quarter more).
size_t sizeClassOf(size_t bytes);

/// Storage of `bytes` in (kMediumBlockBytes, kLargeBlockBytes], 64-byte
/// aligned, from blocks freed earlier in its size class (four per
/// doubling) when there is one (MediumBlocks.cpp); zero-filled when
/// `zeroed`. Null outside that range and in AddressSanitizer builds.
std::shared_ptr<uint8_t> allocateMedium(size_t bytes, bool zeroed);

/// Tensors over this size and up to kLargeBlockBytes are medium blocks.
constexpr size_t kMediumBlockBytes = size_t(4) << 10;

/// Tensors of this size or more are large blocks (an fp16 activation of a
/// MobileNet block is 3 MB: from the heap, its pages fault every run).
constexpr size_t kLargeBlockBytes = size_t(1) << 20;

} // namespace ascendprec::runtime::detail

#endif // ASCENDPREC_LIB_RUNTIME_LARGEBLOCKS_H
