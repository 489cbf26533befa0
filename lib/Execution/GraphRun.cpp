//===- GraphRun.cpp - running a lowered plan on the host ------------------===//

#include "AscendPrec/Execution/GraphRun.h"

#include "BlockPool.h"
#include "ControlFlowRun.h"
#include "DataDependentOps.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "AscendPrec/Execution/AICpuOps.h"
#include "AscendPrec/Execution/DataMovement.h"
#include "AscendPrec/Runtime/KernelRuntime.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::exec;
using runtime::ElementType;
using runtime::HostTensor;
using exec::detail::BlockPool;

std::optional<ElementType> exec::hostElementType(Type type, bool reference) {
  if (type.isF16())
    return reference ? ElementType::F32 : ElementType::F16;
  if (type.isBF16())
    return reference ? ElementType::F32 : ElementType::BF16;
  if (type.isF32())
    return ElementType::F32;
  if (type.isF64())
    return ElementType::F64;
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return std::nullopt;
  bool isUnsigned = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 1: return ElementType::I1;
  case 8: return isUnsigned ? ElementType::U8 : ElementType::I8;
  case 16: return isUnsigned ? ElementType::U16 : ElementType::I16;
  case 32: return isUnsigned ? ElementType::U32 : ElementType::I32;
  case 64: return isUnsigned ? ElementType::U64 : ElementType::I64;
  default: return std::nullopt;
  }
}

namespace {


/// A constant's data; nullopt (with `why`) when it has none (elided).
std::optional<HostTensor> constantTensor(ElementsAttr attr, bool reference, std::string &why) {
  auto type = cast<ShapedType>(attr.getType());
  std::optional<ElementType> stored = hostElementType(type.getElementType(), false);
  std::optional<ElementType> host = hostElementType(type.getElementType(), reference);
  if (!stored || !host) {
    why = "holds elements of an unsupported type";
    return std::nullopt;
  }
  std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
  size_t bytes = runtime::elementBytes(*stored);
  // Weights stored as the run reads them are not copied: the tensor views
  // the attribute's data, which the module keeps and kernels only read
  // (and the cube loop keeps their tiles planned: rememberConstant).
  auto borrowable = [&](ArrayRef<char> raw) {
    return *stored == *host && !type.getElementType().isInteger(1) &&
           reinterpret_cast<uintptr_t>(raw.data()) % bytes == 0 &&
           raw.size() >= static_cast<size_t>(type.getNumElements()) * bytes;
  };
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (dense && !dense.isSplat() && borrowable(dense.getRawData()))
    return HostTensor::borrowed(*stored, shape,
                                reinterpret_cast<const uint8_t *>(dense.getRawData().data()));
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob();
        blob && borrowable(blob->getData()))
      return HostTensor::borrowed(*stored, shape,
                                  reinterpret_cast<const uint8_t *>(blob->getData().data()));
  HostTensor tensor(*stored, shape);
  if (dense) {
    if (type.getElementType().isInteger(1)) {
      int64_t i = 0;
      for (bool value : dense.getValues<bool>())
        tensor.data()[i++] = value;
    } else {
      ArrayRef<char> raw = dense.getRawData();
      if (dense.isSplat()) {
        for (int64_t i = 0; i < tensor.numElements(); ++i)
          std::memcpy(tensor.data() + i * bytes, raw.data(), bytes);
      } else {
        std::memcpy(tensor.data(), raw.data(), std::min(raw.size(), tensor.byteSize()));
      }
    }
  } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob) {
      why = "has no data (its weights were elided)";
      return std::nullopt;
    }
    ArrayRef<char> raw = blob->getData();
    if (raw.size() < tensor.byteSize()) {
      why = "holds fewer bytes than its type needs";
      return std::nullopt;
    }
    std::memcpy(tensor.data(), raw.data(), tensor.byteSize());
  } else {
    why = "is stored in a form the executor does not read";
    return std::nullopt;
  }
  return tensor.convertedTo(*host);
}

/// MLIR's ranked memref descriptor for a host tensor:
/// {allocated, aligned, offset, sizes..., strides...}.
std::vector<int64_t> descriptorOf(HostTensor &tensor) {
  const std::vector<int64_t> &shape = tensor.shape();
  std::vector<int64_t> descriptor(3 + 2 * shape.size());
  auto address = reinterpret_cast<int64_t>(tensor.data());
  descriptor[0] = address;
  descriptor[1] = address;
  descriptor[2] = 0;
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    descriptor[3 + d] = shape[d];
    descriptor[3 + shape.size() + d] = stride;
    stride *= shape[d];
  }
  return descriptor;
}

} // namespace

struct GraphRunner::Impl {
  GraphRunOptions options;
  std::unique_ptr<BlockPool> pool;
  ModuleOp module;
  /// The DMA op of each DMA kernel, by kernel name; under `reference`, of a
  /// copy whose f16/bf16 buffers are f32 (the reference's tensors).
  llvm::StringMap<kernel::DmaOp> dmaOps;
  /// The AI CPU call of each AI CPU kernel (dtype-agnostic on the host).
  llvm::StringMap<kernel::AICPUCallOp> aicpuOps;
  /// Kernels that add into their outputs (atomic stores): the host zeroes
  /// those before the launch. Every other kernel writes every element of
  /// its outputs, which are left unzeroed.
  llvm::StringSet<> accumulatingKernels;
  std::vector<Operation *> widenedCopies;
  /// Ops in If branches that cannot run, with the reason: an error only
  /// when a run takes their branch.
  llvm::DenseMap<Operation *, std::string> deferredProblems;

  /// Weights the runs view in place, given to the runtime as constants
  /// (rememberConstant) until the runner goes.
  std::mutex constantsMutex;
  llvm::DenseSet<const void *> rememberedConstants;

  /// Tells the runtime that `tensor` (a constant's) is never written, when
  /// it views the module's data, which lives as long as the runner.
  void rememberIfBorrowed(const HostTensor &tensor, ElementsAttr attr) {
    const void *data = tensor.data();
    const void *held = nullptr;
    if (auto dense = dyn_cast<DenseElementsAttr>(attr))
      held = dense.getRawData().data();
    else if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
      if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
        held = blob->getData().data();
    if (!data || data != held)
      return;
    std::lock_guard<std::mutex> lock(constantsMutex);
    if (rememberedConstants.insert(data).second)
      runtime::rememberConstant(data, tensor.byteSize());
  }

  ~Impl() {
    for (const void *data : rememberedConstants)
      runtime::forgetConstant(data);
    for (Operation *copy : widenedCopies)
      copy->destroy();
  }
};

namespace {

/// A detached copy of `kernel` with f16/bf16 GM buffers widened to f32.
kernel::KernelOp widenedCopy(kernel::KernelOp kernel) {
  auto copy = cast<kernel::KernelOp>(kernel->clone());
  auto widen = [](Value value) {
    auto memref = dyn_cast<MemRefType>(value.getType());
    if (!memref || !(memref.getElementType().isF16() || memref.getElementType().isBF16()))
      return;
    value.setType(MemRefType::get(memref.getShape(), Float32Type::get(value.getContext()),
                                  memref.getLayout(), memref.getMemorySpace()));
  };
  for (BlockArgument argument : copy.getBody().front().getArguments())
    widen(argument);
  copy.walk([&](Operation *op) {
    for (Value result : op->getResults())
      widen(result);
  });
  return copy;
}

} // namespace

GraphRunner::~GraphRunner() = default;

std::unique_ptr<GraphRunner> GraphRunner::prepare(ModuleOp kernels, const GraphRunOptions &options,
                                                  std::vector<std::string> &problems,
                                                  std::string &error) {
  func::FuncOp graph;
  for (auto function : kernels.getOps<func::FuncOp>())
    if (!function.isPrivate() && !function.isExternal()) {
      graph = function;
      break;
    }
  if (!graph) {
    error = "the kernels module has no graph function";
    return nullptr;
  }
  auto nameOf = [](Operation *op) -> std::string {
    if (auto nodes = op->getAttrOfType<ArrayAttr>("nodes"); nodes && !nodes.empty())
      if (auto first = dyn_cast<StringAttr>(nodes[0]))
        return first.str();
    if (auto name = op->getAttrOfType<StringAttr>("name"))
      return name.str();
    return op->getName().getStringRef().str();
  };
  auto typesHeld = [&](Operation *op) {
    for (Type type : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
      if (auto shaped = dyn_cast<ShapedType>(type);
          shaped && !hostElementType(shaped.getElementType(), options.numerics.reference))
        return false;
    return true;
  };
  // Ops inside an If branch that cannot run are no reason to refuse the
  // plan: a run that never takes the branch is fine, and one that does stops
  // there with the reason (a branch the model's input shapes make invalid
  // stays generic at import, as onnxruntime fails on it at run time).
  llvm::DenseMap<Operation *, std::string> deferred;
  std::function<void(Block &, bool)> check = [&](Block &block, bool inBranch) {
    auto problem = [&](Operation &op, std::string text) {
      if (inBranch)
        deferred[&op] = text;
      else
        problems.push_back(std::move(text));
    };
    for (Operation &op : block) {
      if (isa<func::ReturnOp, kernel::ViewOp>(op) || op.hasTrait<OpTrait::IsTerminator>())
        continue;
      if (isControlFlow(op)) {
        for (Region &region : op.getRegions())
          for (Block &body : region)
            check(body, inBranch || isa<ascend::IfOp>(op));
        continue;
      }
      if (!typesHeld(&op)) {
        problem(op, nameOf(&op) + ": an element type the host executor does not hold");
        continue;
      }
      if (auto constant = dyn_cast<ascend::ConstOp>(op)) {
        std::string why;
        if (!constantTensor(constant.getValue(), false, why))
          problem(op, nameOf(&op) + ": a constant that " + why);
        continue;
      }
      // Sized by its data: the host runs it when the graph runs.
      if (isDataDependentOp(&op))
        continue;
      auto launch = dyn_cast<kernel::LaunchOp>(op);
      if (!launch) {
        problem(op, nameOf(&op) + " (" + op.getName().getStringRef().str() +
                        "): no kernel (not lowered)");
        continue;
      }
      auto kernel = kernels.lookupSymbol<kernel::KernelOp>(launch.getKernel());
      if (kernel.getEngine() == kernel::Engine::AICPU) {
        kernel.walk([&](kernel::AICPUCallOp call) {
          std::string why;
          if (!canRunAICpu(call, launch.getNumResults(), why))
            problem(op, nameOf(&op) + ": " + why);
        });
        continue;
      }
      kernel.walk([&](kernel::DmaOp dma) {
        std::string why;
        if (!canRunDataMovement(dma, why))
          problem(op, nameOf(&op) + ": " + why);
      });
    }
  };
  check(graph.getBody().front(), false);
  if (!problems.empty())
    return nullptr;
  std::unique_ptr<GraphRunner> runner(new GraphRunner());
  runner->function = graph;
  runner->impl = std::make_unique<Impl>();
  for (auto kernel : kernels.getOps<kernel::KernelOp>()) {
    kernel.walk([&](kernel::AICPUCallOp call) {
      runner->impl->aicpuOps[kernel.getSymName()] = call;
    });
    kernel.walk([&](kernel::StoreOp store) {
      if (store.getAtomic())
        runner->impl->accumulatingKernels.insert(kernel.getSymName());
    });
    kernel::KernelOp source = kernel;
    if (options.numerics.reference) {
      bool hasDma = false;
      kernel.walk([&](kernel::DmaOp) { hasDma = true; });
      if (!hasDma)
        continue;
      source = widenedCopy(kernel);
      runner->impl->widenedCopies.push_back(source);
    }
    source.walk([&](kernel::DmaOp dma) { runner->impl->dmaOps[kernel.getSymName()] = dma; });
  }
  runner->impl->options = options;
  runner->impl->module = kernels;
  runner->impl->deferredProblems = std::move(deferred);
  runner->impl->pool = std::make_unique<BlockPool>(std::max(1u, options.threads));
  runtime::setHostThreads(std::max(1u, options.threads));
  bool cached = false;
  runner->jit = KernelJit::compile(kernels, options.numerics, error, &cached);
  if (!runner->jit)
    return nullptr;
  runner->jitMs = cached ? 0.0 : runner->jit->compileMs();
  return runner;
}

/// The model's own values of a constant the plan rounded to fp16/bf16: the
/// constant of the same name before planning, when rounding it gives
/// exactly the plan's values (a fusion that folded other weights into it
/// keeps the plan's).
std::optional<HostTensor> originalWeights(ascend::ConstOp constant,
                                          const llvm::StringMap<ElementsAttr> &originals) {
  auto name = constant->getAttrOfType<StringAttr>("name");
  Type planned = cast<ShapedType>(constant.getValue().getType()).getElementType();
  if (!(planned.isF16() || planned.isBF16()))
    return std::nullopt;
  std::string why;
  // What materialization converted it from (a fused constant too: the
  // fp32 values graph fusion folded).
  if (auto before = constant->getAttrOfType<ElementsAttr>(ascend::kReferenceValueAttr))
    if (cast<ShapedType>(before.getType()).getShape() ==
        cast<ShapedType>(constant.getValue().getType()).getShape())
      if (std::optional<HostTensor> original = constantTensor(before, false, why))
        return original->convertedTo(ElementType::F32);
  if (!name)
    return std::nullopt;
  auto found = originals.find(name.getValue());
  if (found == originals.end())
    return std::nullopt;
  auto originalType = cast<ShapedType>(found->second.getType());
  if (originalType.getShape() != cast<ShapedType>(constant.getValue().getType()).getShape() ||
      !isa<FloatType>(originalType.getElementType()))
    return std::nullopt;
  std::optional<HostTensor> original = constantTensor(found->second, false, why);
  std::optional<HostTensor> plan = constantTensor(constant.getValue(), false, why);
  if (!original || !plan)
    return std::nullopt;
  HostTensor rounded = original->convertedTo(plan->type());
  if (std::memcmp(rounded.data(), plan->data(), plan->byteSize()) != 0)
    return std::nullopt;
  return original->convertedTo(ElementType::F32);
}

struct GraphExecution::State {
  GraphRunner *runner = nullptr;
  Block::iterator next;
  ValueTensors values;
  llvm::DenseMap<Operation *, SmallVector<Value>> freeAfter;
  bool unrunnableOp = false; ///< the run reached an op prepare() deferred
  /// With recordInner: the launches the last control-flow step ran, in order.
  bool recordInner = false;
  std::vector<LaunchOutputs> innerLaunches;

  /// Runs `op` (a constant, view, launch or control flow); a launch at the
  /// graph's top level fills `record`.
  bool run(Operation &op, LaunchOutputs *record, std::string &error);
  bool runLaunch(kernel::LaunchOp launch, LaunchOutputs *record, std::string &error);
};

GraphExecution::~GraphExecution() = default;

std::unique_ptr<GraphExecution> GraphRunner::start(const std::vector<HostTensor> &inputs,
                                                   std::string &error) {
  bool reference = impl->options.numerics.reference;
  Block &body = function.getBody().front();
  if (inputs.size() != body.getNumArguments()) {
    error = "the graph takes " + std::to_string(body.getNumArguments()) + " inputs, not " +
            std::to_string(inputs.size());
    return nullptr;
  }
  std::unique_ptr<GraphExecution> execution(new GraphExecution());
  execution->state = std::make_unique<GraphExecution::State>();
  GraphExecution::State &state = *execution->state;
  state.runner = this;
  state.next = body.begin();
  // Each value's last use, so intermediates are freed as the run goes
  // (uses inside control flow count for the op that holds them).
  state.freeAfter = valuesDyingAt(body);
  for (auto [argument, input] : llvm::zip(body.getArguments(), inputs)) {
    auto shaped = cast<ShapedType>(argument.getType());
    if (input.shape() != std::vector<int64_t>(shaped.getShape().begin(), shaped.getShape().end())) {
      error = "input " + std::to_string(argument.getArgNumber()) + " has the wrong shape";
      return nullptr;
    }
    state.values[argument] =
        input.convertedTo(*hostElementType(shaped.getElementType(), reference));
  }
  return execution;
}

bool GraphRunner::run(const std::vector<HostTensor> &inputs, std::vector<HostTensor> &outputs,
                      std::string &error) {
  std::unique_ptr<GraphExecution> execution = start(inputs, error);
  if (!execution)
    return false;
  while (!execution->finished())
    if (!execution->step(error))
      return false;
  outputs = execution->outputs();
  return true;
}

bool GraphExecution::step(std::string &error) {
  GraphRunner &runner = *state->runner;
  launched = false;
  if (done || state->next == runner.function.getBody().front().end()) {
    error = "the graph function has no return";
    return false;
  }
  Operation &op = *state->next++;
  state->innerLaunches.clear();
  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    results.clear();
    for (Value value : ret.getOperands())
      results.push_back(state->values[value]);
    done = true;
    return true;
  }
  auto start = std::chrono::steady_clock::now();
  LaunchOutputs *record = &last;
  if (!state->run(op, record, error)) {
    unrunnable = state->unrunnableOp;
    return false;
  }
  if (isControlFlow(op) || isDataDependentOp(&op)) {
    // One step for the whole op, as one entry of the per-op figures.
    last.launch = nullptr;
    last.op = &op;
    last.nodes = {op.getAttrOfType<StringAttr>("name") ? op.getAttrOfType<StringAttr>("name").str()
                                                       : op.getName().getStringRef().str()};
    last.outputs.clear();
    for (Value result : op.getResults())
      last.outputs.push_back(state->values.lookup(result));
    last.hostMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    launched = true;
  } else {
    launched = isa<kernel::LaunchOp>(op);
  }
  auto freed = state->freeAfter.find(&op);
  if (freed != state->freeAfter.end())
    for (Value value : freed->second)
      state->values.erase(value);
  return true;
}

bool GraphExecution::State::run(Operation &op, LaunchOutputs *record, std::string &error) {
  bool reference = runner->impl->options.numerics.reference;
  auto typeOf = [&](Value value) {
    return *hostElementType(cast<ShapedType>(value.getType()).getElementType(), reference);
  };
  if (auto constant = dyn_cast<ascend::ConstOp>(op)) {
    std::string why;
    ElementsAttr data = constant.getValue();
    std::optional<HostTensor> tensor;
    if (reference)
      tensor = originalWeights(constant, runner->impl->options.constantOverrides);
    if (!tensor)
      tensor = constantTensor(data, reference, why);
    if (!tensor) {
      error = "a constant " + why;
      return false;
    }
    values[constant.getResult()] = tensor->convertedTo(typeOf(constant.getResult()));
    runner->impl->rememberIfBorrowed(values[constant.getResult()], data);
    return true;
  }
  if (auto view = dyn_cast<kernel::ViewOp>(op)) {
    auto shaped = cast<ShapedType>(view.getType());
    values[view.getResult()] =
        values[view.getSource()].view({shaped.getShape().begin(), shaped.getShape().end()});
    return true;
  }
  if (isControlFlow(op))
    return runControlFlow(
        op, values,
        [&](Operation &inner, std::string &innerError) {
          if (!recordInner || !isa<kernel::LaunchOp>(inner))
            return run(inner, nullptr, innerError);
          LaunchOutputs launch;
          if (!run(inner, &launch, innerError))
            return false;
          innerLaunches.push_back(std::move(launch));
          return true;
        },
        reference, error);
  if (auto launch = dyn_cast<kernel::LaunchOp>(op))
    return runLaunch(launch, record, error);
  if (isDataDependentOp(&op)) {
    std::vector<const HostTensor *> inputs;
    for (Value operand : op.getOperands())
      inputs.push_back(&values[operand]);
    std::vector<HostTensor> outputs;
    if (!runDataDependentOp(&op, inputs, outputs, error))
      return false;
    for (auto [result, tensor] : llvm::zip(op.getResults(), outputs))
      values[result] = std::move(tensor);
    return true;
  }
  // An op prepare() let through only inside a branch: the run took it.
  auto why = runner->impl->deferredProblems.find(&op);
  if (why == runner->impl->deferredProblems.end()) {
    error = "cannot run '" + op.getName().getStringRef().str() + "'";
    return false;
  }
  error = why->second;
  unrunnableOp = true;
  return false;
}

bool GraphExecution::State::runLaunch(kernel::LaunchOp launch, LaunchOutputs *record,
                                      std::string &error) {
  bool reference = runner->impl->options.numerics.reference;
  auto typeOf = [&](Value value) {
    return *hostElementType(cast<ShapedType>(value.getType()).getElementType(), reference);
  };
  auto start = std::chrono::steady_clock::now();
  StringRef name = launch.getKernel();
  const CompiledKernel *compiled = runner->jit->lookup(name);
  // A compiled kernel writes its outputs whole, unless it adds into them.
  bool zeroOutputs = !compiled || runner->impl->accumulatingKernels.contains(name);
  std::vector<HostTensor> outputs;
  for (Value result : launch.getResults()) {
    auto shaped = cast<ShapedType>(result.getType());
    std::vector<int64_t> shape(shaped.getShape().begin(), shaped.getShape().end());
    outputs.push_back(zeroOutputs ? HostTensor(typeOf(result), shape)
                                  : HostTensor::uninitialized(typeOf(result), shape));
  }
  std::vector<HostTensor> arguments;
  for (Value operand : launch.getArgs())
    arguments.push_back(values[operand]);
  if (compiled) {
    std::vector<std::vector<int64_t>> descriptors;
    for (HostTensor &tensor : arguments)
      descriptors.push_back(descriptorOf(tensor));
    for (HostTensor &tensor : outputs)
      descriptors.push_back(descriptorOf(tensor));
    if (descriptors.size() != compiled->numBuffers) {
      error = "kernel '" + name.str() + "' takes " + std::to_string(compiled->numBuffers) +
              " buffers, its launch binds " + std::to_string(descriptors.size());
      return false;
    }
    uint64_t launchId = runtime::newLaunchId();
    std::unique_ptr<BlockPool> &pool = runner->impl->pool;
    if (pool->inheritedThroughFork()) {
      // Prepared before a fork(): its threads stayed in the parent.
      // Kept reachable, never destroyed (LeakSanitizer counts it otherwise).
      static auto *inherited = new std::vector<BlockPool *>();
      unsigned threads = pool->threads();
      inherited->push_back(pool.release());
      pool = std::make_unique<BlockPool>(threads);
    }
    pool->run(compiled->blockDim, [&](int64_t block) {
      runtime::setLaunchId(launchId);
      compiled->runBlock(descriptors, block);
      runtime::setLaunchId(0);
    });
  } else {
    kernel::DmaOp dma = runner->impl->dmaOps.lookup(name);
    kernel::AICPUCallOp aicpu = runner->impl->aicpuOps.lookup(name);
    if (!dma && !aicpu) {
      error = "kernel '" + name.str() + "' was not compiled";
      return false;
    }
    std::vector<const HostTensor *> in;
    std::vector<HostTensor *> out;
    for (HostTensor &tensor : arguments)
      in.push_back(&tensor);
    for (HostTensor &tensor : outputs)
      out.push_back(&tensor);
    if (dma ? !runDataMovement(dma, in, out, error) : !runAICpu(aicpu, in, out, error)) {
      error = "kernel '" + name.str() + "': " + error;
      return false;
    }
  }
  if (record) {
    record->launch = launch;
    record->op = launch;
    record->nodes.clear();
    if (auto names = launch.getNodesAttr())
      for (Attribute attr : names)
        record->nodes.push_back(cast<StringAttr>(attr).str());
    record->outputs = outputs;
    record->hostMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
  }
  for (auto [result, tensor] : llvm::zip(launch.getResults(), outputs))
    values[result] = tensor;
  return true;
}

void GraphExecution::recordInnerLaunches(bool record) { state->recordInner = record; }

const std::vector<LaunchOutputs> &GraphExecution::innerLaunches() const {
  return state->innerLaunches;
}

std::optional<HostTensor> exec::tensorOfConstant(ElementsAttr value, std::string &why) {
  std::optional<HostTensor> tensor = constantTensor(value, /*reference=*/false, why);
  if (!tensor)
    return std::nullopt;
  return tensor->clone(); // owned: the caller may outlive the module
}
