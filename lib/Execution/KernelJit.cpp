//===- KernelJit.cpp - JIT-compiling compute kernels ----------------------===//
//
// A module's kernels go through code generation together, then each
// kernel is keyed, cached and compiled on its own (KernelObjects.cpp): a
// kernel another module already linked in this process, or one on disk
// with the same generated code, is not compiled again.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Execution/KernelJit.h"

#include "ForkSafety.h"
#include "KernelObjects.h"

#include "AscendPrec/Conversion/Passes.h"
#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "AscendPrec/Execution/KernelCache.h"
#include "AscendPrec/Runtime/KernelRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/xxhash.h"

#include <array>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::exec;

namespace {

/// Guards the maps below; held across fork() (ForkSafety.h).
std::mutex cacheMutex;
[[maybe_unused]] const bool cacheMutexHeldAcrossFork = [] {
  exec::detail::holdAcrossFork(cacheMutex);
  return true;
}();
/// Compiled modules by their kernels' text. Never destroyed (their code
/// lives in the process's JIT, which is not either); reachable from a
/// global, so LeakSanitizer does not count it.
std::map<std::string, std::shared_ptr<KernelJit>> &cache() {
  static auto *compiled = new std::map<std::string, std::shared_ptr<KernelJit>>();
  return *compiled;
}

/// The compute kernels alone, in a module with the target: what is
/// compiled and what the cache key is made of.
OwningOpRef<ModuleOp> computeKernelsOf(ModuleOp module) {
  OpBuilder builder(module.getContext());
  OwningOpRef<ModuleOp> kernels = ModuleOp::create(module.getLoc());
  if (Attribute target = module->getAttr("akernel.target"))
    (*kernels)->setAttr("akernel.target", target);
  builder.setInsertionPointToEnd(kernels->getBody());
  for (auto kernel : module.getOps<kernel::KernelOp>()) {
    if (!runsOnHostExecutor(kernel))
      builder.clone(*kernel);
  }
  return kernels;
}

/// One kernel after code generation, alone in a module with the runtime
/// declarations it calls and the module's attributes: what is keyed,
/// lowered and compiled.
struct KernelUnit {
  std::string name;
  OwningOpRef<ModuleOp> module;
  std::string diskKey;
  CachedKernels entry; ///< bindings and the kernel's figures; object once compiled
  CompiledKernel compiled;
};

KernelUnit unitOf(ModuleOp generated, func::FuncOp function, const NumericsOptions &options) {
  KernelUnit unit;
  unit.name = function.getName().str();
  OpBuilder builder(generated.getContext());
  unit.module = ModuleOp::create(generated.getLoc());
  (*unit.module)->setAttrs(generated->getAttrDictionary());
  builder.setInsertionPointToEnd(unit.module->getBody());
  llvm::StringSet<> called;
  function.walk([&](func::CallOp call) { called.insert(call.getCallee()); });
  for (auto declaration : generated.getOps<func::FuncOp>()) {
    auto symbol = declaration->getAttrOfType<StringAttr>("akernel.runtime");
    if (!symbol || !called.contains(declaration.getName()))
      continue;
    builder.clone(*declaration);
    unit.entry.bindings.push_back({declaration.getName().str(), symbol.str()});
  }
  auto copy = cast<func::FuncOp>(builder.clone(*function));
  if (auto blockDim = copy->getAttrOfType<IntegerAttr>("akernel.block_dim"))
    unit.compiled.blockDim = blockDim.getInt();
  // The arguments: the GM buffers, the scratch region, the block index.
  unit.compiled.numBuffers = copy.getNumArguments() - 2;
  if (auto scratch = copy->getAttrOfType<IntegerAttr>("akernel.scratch_bytes"))
    unit.compiled.scratchBytes = scratch.getInt();
  copy->setAttr("llvm.emit_c_interface", UnitAttr::get(generated.getContext()));
  unit.entry.kernels.push_back({unit.name, unit.compiled.blockDim, unit.compiled.numBuffers});
  // The key: the kernel's code as generated (the reference's widening and
  // the overflow mode are in it), and what the host and the tool are.
  std::string text;
  {
    llvm::raw_string_ostream os(text);
    unit.module->print(os, OpPrintingFlags().printGenericOpForm());
  }
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  unit.diskKey = llvm::toHex(digest, /*LowerCase=*/true) + "; kernel; " + options.overflow +
                 "; " + KernelCache::environmentKey();
  return unit;
}

/// Kernels linked in this process, by disk key: a module that shares a
/// kernel with one compiled before (the reference's fp32 kernels, another
/// mode's) links nothing new.
std::map<std::string, CompiledKernel> &linkedKernels() {
  static auto *linked = new std::map<std::string, CompiledKernel>();
  return *linked;
}

/// `unit` lowered to the LLVM dialect and translated to LLVM IR in a
/// context of its own; false with `error` set on failure.
bool lowerUnit(KernelUnit &unit, exec::detail::KernelModule &lowered, std::string &error) {
  PassManager lowering(unit.module->getContext());
  buildKernelToLLVMPipeline(lowering);
  if (failed(lowering.run(*unit.module))) {
    error = "lowering kernel '" + unit.name + "' to LLVM failed";
    return false;
  }
  lowered.context = std::make_unique<llvm::LLVMContext>();
  lowered.module = translateModuleToLLVMIR(*unit.module, *lowered.context);
  if (!lowered.module) {
    error = "translating kernel '" + unit.name + "' to LLVM IR failed";
    return false;
  }
  lowered.cInterface = "_mlir_ciface_" + unit.name;
  return true;
}

/// Compiles `units` to objects on up to `threads` threads. The first is
/// lowered alone, so that every dialect the lowering needs is loaded before
/// the threads share the MLIR context (a context loads dialects safely on
/// one thread only); the rest are lowered, translated and compiled by
/// whichever thread takes them.
bool compileUnits(std::vector<KernelUnit *> &units, unsigned threads, std::string &error) {
  if (units.empty())
    return true;
  std::vector<exec::detail::KernelModule> modules(units.size());
  if (!lowerUnit(*units[0], modules[0], error))
    return false;
  std::atomic<size_t> next{0};
  std::mutex failureMutex;
  std::string failure;
  auto work = [&] {
    for (size_t i = next++; i < units.size(); i = next++) {
      std::string why;
      std::optional<std::string> object;
      if (i == 0 || lowerUnit(*units[i], modules[i], why)) {
        object = exec::detail::compileKernelObject(modules[i], why);
        if (!object)
          why = "kernel '" + units[i]->name + "' did not compile: " + why;
      }
      modules[i].module.reset();
      modules[i].context.reset();
      if (!object) {
        std::lock_guard<std::mutex> lock(failureMutex);
        failure = why;
        continue;
      }
      units[i]->entry.object = std::move(*object);
    }
  };
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < std::min<size_t>(threads, units.size()); ++t)
    workers.emplace_back(work);
  work();
  for (std::thread &worker : workers)
    worker.join();
  if (!failure.empty()) {
    error = failure;
    return false;
  }
  return true;
}

} // namespace

KernelJit::~KernelJit() = default;

std::shared_ptr<KernelJit> KernelJit::compile(ModuleOp module, const NumericsOptions &options,
                                              std::string &error, bool *fromCache) {
  if (fromCache)
    *fromCache = false;
  auto start = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> kernels = computeKernelsOf(module);
  std::string text;
  {
    llvm::raw_string_ostream os(text);
    kernels->print(os, OpPrintingFlags().printGenericOpForm());
  }
  std::string key = std::to_string(llvm::xxh3_64bits(text)) + "/" + std::to_string(text.size()) +
                    "/" + options.overflow + (options.reference ? "/reference" : "");
  {
    std::lock_guard<std::mutex> lock(cacheMutex);
    auto found = cache().find(key);
    if (found != cache().end()) {
      if (fromCache)
        *fromCache = true;
      return found->second;
    }
  }

  MLIRContext *context = module.getContext();
  {
    DialectRegistry registry;
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    context->appendDialectRegistry(registry);
  }
  PassManager codegen(context);
  ConvertKernelToStandardOptions codegenOptions;
  codegenOptions.overflow = options.overflow;
  codegenOptions.reference = options.reference;
  codegen.addPass(createConvertKernelToStandard(codegenOptions));
  if (failed(codegen.run(*kernels))) {
    error = "code generation failed for the kernels";
    return nullptr;
  }

  // Each kernel from this process, from the disk cache, or compiled.
  std::shared_ptr<KernelJit> jit(new KernelJit());
  std::vector<KernelUnit> units;
  for (auto function : kernels->getOps<func::FuncOp>())
    if (!function->hasAttr("akernel.runtime"))
      units.push_back(unitOf(*kernels, function, options));
  std::vector<KernelUnit *> toCompile;
  for (KernelUnit &unit : units) {
    {
      std::lock_guard<std::mutex> lock(cacheMutex);
      auto linked = linkedKernels().find(unit.diskKey);
      if (linked != linkedKernels().end()) {
        jit->kernels[unit.name] = linked->second;
        continue;
      }
    }
    if (std::optional<CachedKernels> stored = KernelCache::load(unit.diskKey)) {
      if (auto entry = exec::detail::linkKernelObject(*stored)) {
        KernelCache::countHit();
        ++jit->cacheHits;
        unit.compiled.entry = entry;
        jit->kernels[unit.name] = unit.compiled;
        std::lock_guard<std::mutex> lock(cacheMutex);
        linkedKernels()[unit.diskKey] = unit.compiled;
        continue;
      }
    }
    KernelCache::countMiss();
    ++jit->compiled;
    toCompile.push_back(&unit);
  }
  if (!compileUnits(toCompile, std::max(1u, runtime::hostThreads()), error))
    return nullptr;
  for (KernelUnit *unit : toCompile) {
    unit->compiled.entry = exec::detail::linkKernelObject(unit->entry);
    if (!unit->compiled.entry) {
      error = "kernel '" + unit->name + "' did not link";
      return nullptr;
    }
    if (!KernelCache::folder().empty())
      KernelCache::store(unit->diskKey, unit->entry);
    jit->kernels[unit->name] = unit->compiled;
    std::lock_guard<std::mutex> lock(cacheMutex);
    linkedKernels()[unit->diskKey] = unit->compiled;
  }
  if (!toCompile.empty() && !KernelCache::folder().empty())
    KernelCache::evictBeyondLimit();
  jit->compileTime =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::lock_guard<std::mutex> lock(cacheMutex);
  cache()[key] = jit;
  return jit;
}

const CompiledKernel *KernelJit::lookup(llvm::StringRef name) const {
  auto found = kernels.find(name);
  return found == kernels.end() ? nullptr : &found->getValue();
}
