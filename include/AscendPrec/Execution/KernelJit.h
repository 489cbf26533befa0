//===- KernelJit.h - compiling a module's compute kernels for the host ----===//

#ifndef ASCENDPREC_EXECUTION_KERNELJIT_H
#define ASCENDPREC_EXECUTION_KERNELJIT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <chrono>
#include <memory>
#include <string>

namespace mlir {
class ExecutionEngine;
} // namespace mlir
namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace ascendprec::exec {

/// How kernels round: the SoC's overflow behaviour and whether 16-bit
/// floats are widened to f32 (the fp32 reference run).
struct NumericsOptions {
  std::string overflow = "soc"; ///< soc, ieee or saturation
  bool reference = false;
};

struct CachedKernels;

/// One compiled kernel: a packed entry taking pointers to its GM buffers'
/// memref descriptors and to the block index.
struct CompiledKernel {
  void (*entry)(void **) = nullptr;
  int64_t blockDim = 1;
  unsigned numBuffers = 0;
};

/// The compute kernels of an akernel module, JIT-compiled at -O2 through
/// prec-convert-kernel-to-std and prec-kernel-to-llvm. Compiled modules are
/// cached in the process by the kernels' text and the options, so running
/// the same plan again (another mode's run sharing kernels, a second
/// iteration) does not recompile, and on disk across processes
/// (KernelCache.h), where a later run loads the object code instead of
/// compiling.
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

private:
  KernelJit() = default;
  static std::shared_ptr<KernelJit> loadCompiled(const CachedKernels &stored,
                                                 std::chrono::steady_clock::time_point start);
  std::unique_ptr<mlir::ExecutionEngine> engine; ///< compiled in this run
  std::unique_ptr<llvm::orc::LLJIT> loaded;       ///< or loaded from disk
  llvm::StringMap<CompiledKernel> kernels;
  double compileTime = 0;
};

} // namespace ascendprec::exec

#endif // ASCENDPREC_EXECUTION_KERNELJIT_H
