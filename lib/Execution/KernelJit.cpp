//===- KernelJit.cpp - JIT-compiling compute kernels ----------------------===//

#include "AscendPrec/Execution/KernelJit.h"

#include "AscendPrec/Conversion/Passes.h"
#include "AscendPrec/Execution/KernelCache.h"
#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "AscendPrec/Runtime/KernelRuntime.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <functional>
#include <map>
#include <mutex>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::exec;

namespace {

std::mutex cacheMutex;
/// Never destroyed: a compiled module's engine must not be torn down after
/// LLVM's own static state at process exit (that crashes), and the process
/// gives the memory back anyway. Reachable from a global, so LeakSanitizer
/// does not count it.
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

/// The object code the engine compiled (enableObjectDump), read back from
/// the file it can write it to.
std::optional<std::string> objectCodeOf(ExecutionEngine &engine) {
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile("ascendprec-kernels", "o", path))
    return std::nullopt;
  engine.dumpToObjectFile(path);
  std::optional<std::string> bytes;
  if (auto buffer = llvm::MemoryBuffer::getFile(path); buffer && (*buffer)->getBufferSize())
    bytes = (*buffer)->getBuffer().str();
  llvm::sys::fs::remove(path);
  return bytes;
}

} // namespace

/// LLVM's native target, once per process.
static void initializeNativeTarget() {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
}

/// A module compiled by an earlier run, linked into a JIT of its own: the
/// runtime functions and libm replacements bound as when it was compiled,
/// everything else from the process. Null (and the entry rebuilt) when the
/// object does not link or a kernel is missing.
std::shared_ptr<KernelJit>
KernelJit::loadCompiled(const CachedKernels &stored,
                        std::chrono::steady_clock::time_point start) {
  initializeNativeTarget();
  auto machine = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machine) {
    llvm::consumeError(machine.takeError());
    return nullptr;
  }
  auto lljit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*machine)).create();
  if (!lljit) {
    llvm::consumeError(lljit.takeError());
    return nullptr;
  }
  llvm::orc::JITDylib &dylib = (*lljit)->getMainJITDylib();
  llvm::orc::SymbolMap symbols;
  for (const auto &[name, symbol] : stored.bindings) {
    void *address = nullptr;
    for (const auto &[runtimeName, runtimeAddress] : runtime::kernelRuntimeSymbols())
      if (runtimeName == symbol)
        address = runtimeAddress;
    if (!address)
      return nullptr; // a runtime function this build does not have
    symbols[(*lljit)->mangleAndIntern(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                                llvm::JITSymbolFlags::Exported};
  }
  // Before the process's libm is searched.
  for (const auto &[name, address] : runtime::libmReplacements())
    symbols[(*lljit)->mangleAndIntern(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                                llvm::JITSymbolFlags::Exported};
  if (llvm::Error error = dylib.define(llvm::orc::absoluteSymbols(std::move(symbols)))) {
    llvm::consumeError(std::move(error));
    return nullptr;
  }
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*lljit)->getDataLayout().getGlobalPrefix());
  if (!process) {
    llvm::consumeError(process.takeError());
    return nullptr;
  }
  dylib.addGenerator(std::move(*process));
  if (llvm::Error error = (*lljit)->addObjectFile(
          llvm::MemoryBuffer::getMemBufferCopy(stored.object, "cached kernels"))) {
    llvm::consumeError(std::move(error));
    return nullptr;
  }
  std::shared_ptr<KernelJit> jit(new KernelJit());
  for (const CachedKernels::Kernel &kernel : stored.kernels) {
    // ExecutionEngine's packed wrapper of the C interface function.
    auto address = (*lljit)->lookup("_mlir__mlir_ciface_" + kernel.name);
    if (!address) {
      llvm::consumeError(address.takeError());
      return nullptr;
    }
    CompiledKernel compiled;
    compiled.entry = address->toPtr<void (*)(void **)>();
    compiled.blockDim = kernel.blockDim;
    compiled.numBuffers = kernel.numBuffers;
    jit->kernels[kernel.name] = compiled;
  }
  jit->loaded = std::move(*lljit);
  jit->compileTime =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return jit;
}

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
    kernels->print(os, OpPrintingFlags().printGenericOpForm().elideLargeElementsAttrs(16));
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
  // On disk: the kernels' content (SHA-256 of their IR), the options and
  // what the host and the tool are (KernelCache::environmentKey).
  std::string diskKey;
  {
    std::array<uint8_t, 32> digest = llvm::SHA256::hash(
        llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(text.data()), text.size()));
    diskKey = llvm::toHex(digest, /*LowerCase=*/true) + "; " + options.overflow +
              (options.reference ? "; reference; " : "; plan; ") + KernelCache::environmentKey();
  }
  if (std::optional<CachedKernels> stored = KernelCache::load(diskKey)) {
    if (std::shared_ptr<KernelJit> jit = loadCompiled(*stored, start)) {
      // Its compileMs() is the time loading it took.
      KernelCache::countHit();
      std::lock_guard<std::mutex> lock(cacheMutex);
      cache()[key] = jit;
      return jit;
    }
  }
  KernelCache::countMiss();

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

  std::shared_ptr<KernelJit> jit(new KernelJit());
  // Every runtime declaration binds to its C function.
  std::vector<std::pair<std::string, void *>> bindings;
  CachedKernels toStore;
  for (auto function : kernels->getOps<func::FuncOp>()) {
    if (auto symbol = function->getAttrOfType<StringAttr>("akernel.runtime")) {
      for (const auto &[name, address] : runtime::kernelRuntimeSymbols())
        if (name == symbol.getValue())
          bindings.push_back({function.getName().str(), address});
      toStore.bindings.push_back({function.getName().str(), symbol.str()});
      continue;
    }
    CompiledKernel kernel;
    if (auto blockDim = function->getAttrOfType<IntegerAttr>("akernel.block_dim"))
      kernel.blockDim = blockDim.getInt();
    kernel.numBuffers = function.getNumArguments() - 1;
    function->setAttr("llvm.emit_c_interface", UnitAttr::get(context));
    jit->kernels[function.getName()] = kernel;
  }

  PassManager lowering(context);
  buildKernelToLLVMPipeline(lowering);
  if (failed(lowering.run(*kernels))) {
    error = "lowering the kernels to LLVM failed";
    return nullptr;
  }

  initializeNativeTarget();
  // The optimizer sees the host machine (its vector width and features),
  // as the code generator does: without it LLVM's vectorizers leave every
  // elementwise loop scalar. Vectorizing changes no element's value: each
  // lane computes what the scalar loop would, and floating-point sums are
  // never reassociated (no fast-math flags reach LLVM).
  auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder) {
    error = "no target for this host: " + llvm::toString(machineBuilder.takeError());
    return nullptr;
  }
  auto machine = machineBuilder->createTargetMachine();
  if (!machine) {
    error = "no target machine for this host: " + llvm::toString(machine.takeError());
    return nullptr;
  }
  // The options hold the transformer by reference (function_ref): it must
  // outlive ExecutionEngine::create.
  std::function<llvm::Error(llvm::Module *)> transformer =
      makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0, machine->get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Default;
  // No perf/GDB JIT dumps (MLIR writes one per run into ~/.debug otherwise).
  engineOptions.enablePerfNotificationListener = false;
  engineOptions.enableGDBNotificationListener = false;
  // The object code is kept, for the disk cache.
  engineOptions.enableObjectDump = !KernelCache::folder().empty();
  auto engine = ExecutionEngine::create(*kernels, engineOptions, std::move(*machine));
  if (!engine) {
    error = "JIT compilation failed: " + llvm::toString(engine.takeError());
    return nullptr;
  }
  jit->engine = std::move(*engine);
  jit->engine->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    for (const auto &[name, address] : bindings)
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                 llvm::JITSymbolFlags::Exported};
    // Before the process's libm is searched.
    for (const auto &[name, address] : runtime::libmReplacements())
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                 llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  for (auto &entry : jit->kernels) {
    auto packed = jit->engine->lookupPacked("_mlir_ciface_" + entry.getKey().str());
    if (!packed) {
      error = "kernel '" + entry.getKey().str() + "' did not compile: " +
              llvm::toString(packed.takeError());
      return nullptr;
    }
    entry.getValue().entry = *packed;
  }
  jit->compileTime =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  // (A module with no compute kernel has no object code to keep.)
  if (engineOptions.enableObjectDump && !jit->kernels.empty()) {
    for (const auto &entry : jit->kernels)
      toStore.kernels.push_back({entry.getKey().str(), entry.getValue().blockDim,
                                 entry.getValue().numBuffers});
    if (std::optional<std::string> object = objectCodeOf(*jit->engine)) {
      toStore.object = std::move(*object);
      KernelCache::store(diskKey, toStore);
    }
  }
  std::lock_guard<std::mutex> lock(cacheMutex);
  cache()[key] = jit;
  return jit;
}

const CompiledKernel *KernelJit::lookup(llvm::StringRef name) const {
  auto found = kernels.find(name);
  return found == kernels.end() ? nullptr : &found->getValue();
}
