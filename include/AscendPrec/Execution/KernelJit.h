//===- KernelJit.h - compiling a module's compute kernels for the host ----===//

#ifndef ASCENDPREC_EXECUTION_KERNELJIT_H
#define ASCENDPREC_EXECUTION_KERNELJIT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace ascendprec::exec {

/// How kernels round: the SoC's overflow behaviour and whether 16-bit
/// floats are widened to f32 (the fp32 reference run).
struct NumericsOptions {
  std::string overflow = "soc"; ///< soc, ieee or saturation
  bool reference = false;
};

/// One compiled kernel: a packed entry taking pointers to its GM buffers'
/// memref descriptors, to its scratch region's descriptor and to the block
/// index.
struct CompiledKernel {
  void (*entry)(void **) = nullptr;
  int64_t blockDim = 1;
  unsigned numBuffers = 0;
  /// Bytes of the region holding the kernel's local buffers (UB, L1, L0).
  int64_t scratchBytes = 0;

  /// Runs block `block` on the GM buffers of `descriptors` (numBuffers
  /// memref descriptors: allocated and aligned pointers, offset, sizes,
  /// strides). The scratch region is the calling thread's own, kept for
  /// its later blocks (KernelBlock.cpp).
  void runBlock(const std::vector<std::vector<int64_t>> &descriptors, int64_t block) const;
};

/// The compute kernels of an akernel module, compiled at -O2 through
/// prec-convert-kernel-to-std and prec-kernel-to-llvm for this host, each
/// kernel to an object of its own, linked into the process's JIT. A kernel
/// is keyed by its generated code: one that an earlier module of the
/// process already linked (the plan's fp32 kernels for the reference, one
/// mode's for another) is shared, one stored on disk by an earlier run
/// (KernelCache.h) is loaded instead of compiled, and the rest compile on
/// up to runtime::hostThreads() threads. Compiled modules are also kept by
/// their kernels' text, so running the same plan again finds them at once.
class KernelJit {
public:
  /// Compiles, loads from the disk cache (compileMs() is then the loading
  /// time) or finds in the process's cache (`fromCache`); null with
  /// `error` set on failure.
  static std::shared_ptr<KernelJit> compile(mlir::ModuleOp kernels,
                                            const NumericsOptions &options, std::string &error,
                                            bool *fromCache = nullptr);
  ~KernelJit();

  const CompiledKernel *lookup(llvm::StringRef name) const;
  /// Wall time of the compilation in ms.
  double compileMs() const { return compileTime; }
  /// Kernels this compile loaded from the disk cache, and compiled.
  unsigned kernelsFromCache() const { return cacheHits; }
  unsigned kernelsCompiled() const { return compiled; }

private:
  KernelJit() = default;
  llvm::StringMap<CompiledKernel> kernels;
  double compileTime = 0;
  unsigned cacheHits = 0, compiled = 0;
};

} // namespace ascendprec::exec

#endif // ASCENDPREC_EXECUTION_KERNELJIT_H
