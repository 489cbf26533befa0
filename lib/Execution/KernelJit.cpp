//===- KernelJit.cpp - JIT-compiling compute kernels ----------------------===//

#include "AscendPrec/Execution/KernelJit.h"

#include "AscendPrec/Conversion/Passes.h"
#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "AscendPrec/Runtime/KernelRuntime.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
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
  for (auto function : kernels->getOps<func::FuncOp>()) {
    if (auto symbol = function->getAttrOfType<StringAttr>("akernel.runtime")) {
      for (const auto &[name, address] : runtime::kernelRuntimeSymbols())
        if (name == symbol.getValue())
          bindings.push_back({function.getName().str(), address});
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

  static bool targetsInitialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)targetsInitialized;
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
  std::lock_guard<std::mutex> lock(cacheMutex);
  cache()[key] = jit;
  return jit;
}

const CompiledKernel *KernelJit::lookup(llvm::StringRef name) const {
  auto found = kernels.find(name);
  return found == kernels.end() ? nullptr : &found->getValue();
}
