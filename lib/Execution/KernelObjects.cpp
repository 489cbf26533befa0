//===- KernelObjects.cpp - one kernel's object code, and linking it -------===//
//
// A kernel is compiled as ExecutionEngine would compile it (-O2 for the
// host's CPU and features, the C-interface function wrapped in a packed
// entry), but into an object of its own, with no JIT involved: objects
// compile on several threads at once and go to the disk cache kernel by
// kernel. Every object, compiled now or loaded from the cache, is linked
// into one JIT for the process, in a JITDylib of its own: two modules may
// hold different kernels of the same name. The runtime's functions and the
// libm replacements are bound in the JIT's main JITDylib, searched before
// the process.
//
//===----------------------------------------------------------------------===//

#include "KernelObjects.h"

#include "ForkSafety.h"

#include "AscendPrec/Runtime/KernelRuntime.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <mutex>

using namespace ascendprec::exec;
using namespace ascendprec::exec::detail;

namespace {

void initializeNativeTarget() {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
}

/// The host's target, position-independent (objects are linked at any
/// address), generating code at the default level as the JIT did.
llvm::Expected<llvm::orc::JITTargetMachineBuilder> hostTarget() {
  initializeNativeTarget();
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  builder->setRelocationModel(llvm::Reloc::PIC_);
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  return builder;
}

/// `void _mlir_<name>(void **arguments)`: calls `cInterface` with argument
/// i read from the pointer arguments[i] (ExecutionEngine's packed calling
/// convention, which the executor's launches use).
bool addPackedEntry(llvm::Module &module, llvm::Function &cInterface) {
  if (!cInterface.getReturnType()->isVoidTy())
    return false;
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> builder(context);
  llvm::Type *pointer = builder.getPtrTy();
  auto *type = llvm::FunctionType::get(builder.getVoidTy(), {pointer}, /*isVarArg=*/false);
  auto *entry = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                       "_mlir_" + cInterface.getName(), module);
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", entry));
  llvm::Value *arguments = entry->getArg(0);
  llvm::SmallVector<llvm::Value *> values;
  for (llvm::Argument &parameter : cInterface.args()) {
    llvm::Value *slot = builder.CreateConstGEP1_64(pointer, arguments, parameter.getArgNo());
    llvm::Value *address = builder.CreateLoad(pointer, slot);
    values.push_back(builder.CreateLoad(parameter.getType(), address));
  }
  builder.CreateCall(&cInterface, values);
  builder.CreateRetVoid();
  return true;
}

/// The process's JIT: the main JITDylib binds the runtime, one JITDylib
/// per kernel object links against it. Never destroyed: tearing a JIT
/// down after LLVM's own static state at exit crashes.
class Linker {
public:
  static Linker &get() {
    static auto *linker = new Linker();
    return *linker;
  }

  void (*link(const CachedKernels &stored))(void **) {
    if (stored.kernels.size() != 1)
      return nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    if (!jit)
      return nullptr;
    llvm::orc::JITDylib &runtime = jit->getMainJITDylib();
    llvm::orc::SymbolMap symbols;
    for (const auto &[name, symbol] : stored.bindings) {
      auto bound = boundTo.find(name);
      if (bound != boundTo.end()) {
        if (bound->second != symbol)
          return nullptr; // a declaration this build binds otherwise
        continue;
      }
      void *address = nullptr;
      for (const auto &[runtimeName, runtimeAddress] : ascendprec::runtime::kernelRuntimeSymbols())
        if (runtimeName == symbol)
          address = runtimeAddress;
      if (!address)
        return nullptr; // a runtime function this build does not have
      symbols[jit->mangleAndIntern(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                             llvm::JITSymbolFlags::Exported};
    }
    if (!symbols.empty()) {
      if (llvm::Error error = runtime.define(llvm::orc::absoluteSymbols(symbols))) {
        llvm::consumeError(std::move(error));
        return nullptr;
      }
      for (const auto &[name, symbol] : stored.bindings)
        boundTo.try_emplace(name, symbol);
    }
    auto dylib = jit->createJITDylib("kernel." + std::to_string(objects++));
    if (!dylib) {
      llvm::consumeError(dylib.takeError());
      return nullptr;
    }
    llvm::orc::JITDylibSearchOrder order = {
        {&runtime, llvm::orc::JITDylibLookupFlags::MatchExportedSymbolsOnly}};
    for (const auto &link : jit->defaultLinkOrder())
      order.push_back(link);
    dylib->setLinkOrder(std::move(order));
    if (llvm::Error error = jit->addObjectFile(
            *dylib, llvm::MemoryBuffer::getMemBufferCopy(stored.object, stored.kernels[0].name))) {
      llvm::consumeError(std::move(error));
      return nullptr;
    }
    auto address = jit->lookup(*dylib, "_mlir__mlir_ciface_" + stored.kernels[0].name);
    if (!address) {
      llvm::consumeError(address.takeError());
      return nullptr;
    }
    return address->toPtr<void (*)(void **)>();
  }

private:
  Linker() {
    // A fork waits for a link in progress (ForkSafety.h).
    holdAcrossFork(mutex);
    auto target = hostTarget();
    if (!target) {
      llvm::consumeError(target.takeError());
      return;
    }
    auto created = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*target)).create();
    if (!created) {
      llvm::consumeError(created.takeError());
      return;
    }
    llvm::orc::JITDylib &runtime = (*created)->getMainJITDylib();
    auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
        (*created)->getDataLayout().getGlobalPrefix());
    if (!process) {
      llvm::consumeError(process.takeError());
      return;
    }
    runtime.addGenerator(std::move(*process));
    jit = std::move(*created);
  }

  std::mutex mutex;
  std::unique_ptr<llvm::orc::LLJIT> jit; ///< null when the host has no JIT
  llvm::StringMap<std::string> boundTo;  ///< declared name -> runtime symbol
  unsigned objects = 0;
};

} // namespace

std::optional<std::string> ascendprec::exec::detail::compileKernelObject(KernelModule &kernel,
                                                                         std::string &error) {
  auto target = hostTarget();
  if (!target) {
    error = "no target for this host: " + llvm::toString(target.takeError());
    return std::nullopt;
  }
  auto machine = target->createTargetMachine();
  if (!machine) {
    error = "no target machine for this host: " + llvm::toString(machine.takeError());
    return std::nullopt;
  }
  llvm::Module &module = *kernel.module;
  module.setDataLayout((*machine)->createDataLayout());
  module.setTargetTriple((*machine)->getTargetTriple());
  llvm::Function *cInterface = module.getFunction(kernel.cInterface);
  if (!cInterface || !addPackedEntry(module, *cInterface)) {
    error = "kernel function '" + kernel.cInterface + "' is missing or returns a value";
    return std::nullopt;
  }
  // The optimizer sees the host machine (its vector width and features),
  // as the code generator does: without it LLVM's vectorizers leave every
  // elementwise loop scalar. Vectorizing changes no element's value: each
  // lane computes what the scalar loop would, and floating-point sums are
  // never reassociated (no fast-math flags reach LLVM).
  auto optimize = mlir::makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0, machine->get());
  if (llvm::Error failure = optimize(&module)) {
    error = "optimizing the kernel failed: " + llvm::toString(std::move(failure));
    return std::nullopt;
  }
  llvm::SmallVector<char, 0> bytes;
  llvm::raw_svector_ostream os(bytes);
  llvm::legacy::PassManager passes;
  if ((*machine)->addPassesToEmitFile(passes, os, nullptr, llvm::CodeGenFileType::ObjectFile)) {
    error = "this host's target cannot emit object code";
    return std::nullopt;
  }
  passes.run(module);
  return std::string(bytes.begin(), bytes.end());
}

void (*ascendprec::exec::detail::linkKernelObject(const CachedKernels &stored))(void **) {
  return Linker::get().link(stored);
}
