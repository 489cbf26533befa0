//===- KernelObjects.h - one kernel's object code, and linking it ---------===//
//
// Internal to lib/Execution (KernelJit.cpp). Each compute kernel is compiled
// to an object of its own, so that the disk cache holds kernels, not
// modules: a plan and its fp32 reference, or two precision modes, share
// every kernel whose code is the same.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_EXECUTION_KERNELOBJECTS_H
#define ASCENDPREC_LIB_EXECUTION_KERNELOBJECTS_H

#include "AscendPrec/Execution/KernelCache.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ascendprec::exec::detail {

/// An LLVM module holding one kernel's C-interface function, with the
/// context it lives in: compiled on any thread.
struct KernelModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::string cInterface; ///< `_mlir_ciface_<kernel>`
};

/// Adds the packed entry `_mlir_<cInterface>` (taking an array of pointers
/// to the arguments), optimizes at -O2 for this host and emits its object
/// code; nullopt with `error` set on failure. Safe on several threads at
/// once (each module has its own context).
std::optional<std::string> compileKernelObject(KernelModule &kernel, std::string &error);

/// Links a stored kernel into the process's JIT (one JITDylib per object,
/// the runtime's functions bound to their C symbols) and returns its packed
/// entry, or null when the object does not link or binds a runtime
/// function this build lacks.
void (*linkKernelObject(const CachedKernels &stored))(void **);

} // namespace ascendprec::exec::detail

#endif // ASCENDPREC_LIB_EXECUTION_KERNELOBJECTS_H
