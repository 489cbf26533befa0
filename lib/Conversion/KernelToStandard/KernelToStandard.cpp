//===- KernelToStandard.cpp - prec-convert-kernel-to-std ------------------===//
//
// Every compute kernel becomes a host function: its GM buffers, a scratch
// region holding its local buffers (LocalBuffers.cpp) and the block index as
// arguments, memory spaces dropped. The per-op lowerings live in VectorCodegen.cpp (inline vector
// compute) and RuntimeCalls.cpp (calls of the kernel runtime).
//
//===----------------------------------------------------------------------===//

#include "Codegen.h"

#include "AscendPrec/Conversion/Passes.h"
#include "AscendPrec/Runtime/HostTensor.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace ascendprec {
#define GEN_PASS_DEF_CONVERTKERNELTOSTANDARD
#include "AscendPrec/Conversion/Passes.h.inc"
} // namespace ascendprec

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;
using namespace ascendprec::kernel::codegen;

//===----------------------------------------------------------------------===//
// CodegenContext
//===----------------------------------------------------------------------===//

int32_t codegen::elementCodeOf(Type type, bool isUnsigned) {
  using runtime::ElementType;
  ElementType code = ElementType::F32;
  if (type.isF16())
    code = ElementType::F16;
  else if (type.isBF16())
    code = ElementType::BF16;
  else if (type.isF64())
    code = ElementType::F64;
  else if (auto integer = dyn_cast<IntegerType>(type)) {
    bool unsignedType = isUnsigned || integer.isUnsigned();
    switch (integer.getWidth()) {
    case 1: code = ElementType::I1; break;
    case 8: code = unsignedType ? ElementType::U8 : ElementType::I8; break;
    case 16: code = unsignedType ? ElementType::U16 : ElementType::I16; break;
    case 32: code = unsignedType ? ElementType::U32 : ElementType::I32; break;
    default: code = unsignedType ? ElementType::U64 : ElementType::I64; break;
    }
  } else if (type.isIndex()) {
    code = ElementType::I64;
  }
  return static_cast<int32_t>(code);
}

Type CodegenContext::originalElementOf(Value buffer) const {
  auto found = originalElement.find(buffer);
  if (found != originalElement.end())
    return found->second;
  return getElementTypeOrSelf(buffer.getType());
}

Type CodegenContext::effective(Type type) const {
  if (reference && (type.isF16() || type.isBF16()))
    return Float32Type::get(type.getContext());
  if (auto integer = dyn_cast<IntegerType>(type); integer && !integer.isSignless())
    return IntegerType::get(type.getContext(), integer.getWidth());
  return type;
}

int32_t CodegenContext::elementCode(Value buffer) const {
  Type original = originalElementOf(buffer);
  return elementCodeOf(effective(original), original.isUnsignedInteger());
}

func::FuncOp CodegenContext::runtimeFunction(StringRef symbol, TypeRange arguments,
                                             TypeRange results) {
  std::string name = symbol.str() + "_";
  llvm::raw_string_ostream os(name);
  for (Type type : arguments) {
    os << "_";
    if (auto unranked = dyn_cast<UnrankedMemRefType>(type))
      os << "m" << unranked.getElementType();
    else
      os << type;
  }
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder builder(module.getContext());
  builder.setInsertionPointToStart(module.getBody());
  auto function = func::FuncOp::create(builder, module.getLoc(), name,
                                       builder.getFunctionType(arguments, results));
  function.setPrivate();
  function->setAttr("akernel.runtime", builder.getStringAttr(symbol));
  return function;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

bool ascendprec::runsOnHostExecutor(KernelOp kernel) {
  if (kernel.getEngine() == Engine::AICPU)
    return true;
  bool hostOnly = false;
  kernel.walk([&](Operation *op) {
    if (isa<DmaOp, AICPUCallOp>(op))
      hostOnly = true;
  });
  return hostOnly;
}

namespace {


/// Whether the SoC saturates float overflow: the Atlas training (Ascend910)
/// and inference (Ascend310/310P) products only have saturation mode; the
/// 910B-class (A2/A3) default to IEEE Inf/NaN (docs/numerics.md).
bool socSaturates(StringRef soc) {
  return !(soc.starts_with("Ascend910B") || soc.starts_with("Ascend910_93"));
}

struct ConvertKernelToStandardPass
    : ascendprec::impl::ConvertKernelToStandardBase<ConvertKernelToStandardPass> {
  using ConvertKernelToStandardBase::ConvertKernelToStandardBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    CodegenContext context;
    context.module = module;
    context.reference = reference;
    if (overflow == "soc") {
      auto target = module->getAttrOfType<TargetAttr>("akernel.target");
      context.saturate = target && socSaturates(target.getSoc().getValue());
    } else if (overflow == "saturation" || overflow == "ieee") {
      context.saturate = overflow == "saturation";
    } else {
      module.emitError("overflow must be soc, ieee or saturation, not '") << overflow << "'";
      return signalPassFailure();
    }

    SmallVector<KernelOp> kernels;
    SmallVector<Operation *> hostSide;
    for (Operation &op : module.getBody()->getOperations()) {
      auto kernel = dyn_cast<KernelOp>(op);
      if (kernel && !runsOnHostExecutor(kernel))
        kernels.push_back(kernel);
      else if (!isa<func::FuncOp>(op) || !op.hasAttr("akernel.runtime"))
        hostSide.push_back(&op);
    }
    for (Operation *op : hostSide)
      op->erase();
    for (KernelOp kernel : kernels)
      if (failed(convertKernel(kernel, context)))
        return signalPassFailure();
  }

  Type convertType(Type type, const CodegenContext &context) {
    if (auto memref = dyn_cast<MemRefType>(type))
      return MemRefType::get(memref.getShape(), context.effective(memref.getElementType()),
                             memref.getLayout(), Attribute());
    if (auto unranked = dyn_cast<UnrankedMemRefType>(type))
      return UnrankedMemRefType::get(context.effective(unranked.getElementType()), Attribute());
    return type;
  }

  LogicalResult convertKernel(KernelOp kernel, CodegenContext &context) {
    Block &entry = kernel.getBody().front();
    // Types first: memory spaces dropped, unsigned integers signless (their
    // signedness kept aside), f16/bf16 widened under `reference`.
    auto retype = [&](Value value) {
      Type element = getElementTypeOrSelf(value.getType());
      if (isa<MemRefType, UnrankedMemRefType>(value.getType()))
        context.originalElement[value] = element;
      value.setType(convertType(value.getType(), context));
    };
    for (BlockArgument argument : entry.getArguments())
      retype(argument);
    kernel.walk([&](Operation *op) {
      for (Value result : op->getResults())
        retype(result);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            if (&block != &entry)
              retype(argument);
    });

    OpBuilder builder(kernel);
    // The scratch region's size is set once the cube loops have dropped
    // their L0 tiles (below).
    SmallVector<Type> argumentTypes(entry.getArgumentTypes());
    argumentTypes.push_back(MemRefType::get({0}, builder.getI8Type()));
    argumentTypes.push_back(builder.getIndexType());
    auto function = func::FuncOp::create(builder, kernel.getLoc(), kernel.getSymName(),
                                         builder.getFunctionType(argumentTypes, {}));
    function->setAttr("akernel.block_dim", kernel.getBlockDimAttr());
    function->setAttr("akernel.engine",
                      builder.getStringAttr(stringifyEngine(kernel.getEngine())));
    function->setAttr("akernel.nodes", kernel.getNodesAttr());
    Block *body = function.addEntryBlock();
    for (unsigned i = 0; i < entry.getNumArguments(); ++i) {
      context.originalElement[body->getArgument(i)] =
          context.originalElementOf(entry.getArgument(i));
      entry.getArgument(i).replaceAllUsesWith(body->getArgument(i));
    }
    body->getOperations().splice(body->end(), entry.getOperations());
    Value blockIndex = body->getArguments().back();
    Value scratch = body->getArgument(body->getNumArguments() - 2);
    builder.setInsertionPointToEnd(body);
    auto ret = func::ReturnOp::create(builder, kernel.getLoc());
    partitionTileLoops(function, kernel.getBlockDim());
    lowerCubeLoops(function, context);
    elideTileCopies(function, context);
    LocalBufferLayout locals = layOutLocalBuffers(function);
    scratch.setType(MemRefType::get({locals.totalBytes}, builder.getI8Type()));
    function.setType(builder.getFunctionType(body->getArgumentTypes(), {}));
    function->setAttr("akernel.scratch_bytes", builder.getI64IntegerAttr(locals.totalBytes));

    SmallVector<Operation *> kernelOps;
    function.walk([&](Operation *op) {
      if (op->getDialect() && isa<KernelDialect>(op->getDialect()))
        kernelOps.push_back(op);
    });
    for (Operation *op : kernelOps) {
      OpBuilder b(op);
      if (auto index = dyn_cast<BlockIdxOp>(op)) {
        index.replaceAllUsesWith(blockIndex);
      } else if (auto alloc = dyn_cast<AllocOp>(op)) {
        if (alloc->use_empty()) {
          // An L0 tile of a cube loop the runtime now runs.
          op->erase();
          continue;
        }
        if (Value view = localBuffer(b, alloc, locals, scratch)) {
          context.originalElement[view] = context.originalElementOf(alloc);
          alloc.replaceAllUsesWith(view);
          op->erase();
          continue;
        }
        // Heap, not stack: a kernel's local buffers reach a few MiB and run
        // on pool threads.
        auto buffer = memref::AllocOp::create(b, op->getLoc(),
                                              cast<MemRefType>(alloc.getType()),
                                              b.getI64IntegerAttr(64));
        context.originalElement[buffer] = context.originalElementOf(alloc);
        alloc.replaceAllUsesWith(buffer.getResult());
        b.setInsertionPoint(ret);
        memref::DeallocOp::create(b, op->getLoc(), buffer);
      } else if (auto vop = dyn_cast<VectorOp>(op)) {
        if (failed(lowerVectorOp(vop, context)))
          return failure();
      } else if (auto cast = dyn_cast<CastOp>(op)) {
        if (failed(lowerCastOp(cast, context)))
          return failure();
      } else if (failed(lowerToRuntimeCall(op, context))) {
        return op->emitOpError("has no host code generation");
      }
      op->erase();
    }
    kernel.erase();
    return success();
  }
};

} // namespace

void ascendprec::buildKernelToLLVMPipeline(OpPassManager &pm) {
  // bf16 conversions become integer code before LLVM sees a bf16 type, so
  // the host's AVX512-BF16 instructions (which flush subnormals) are never
  // chosen, at any optimisation level.
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void ascendprec::registerKernelToLLVMPipeline() {
  PassPipelineRegistration<>(
      "prec-kernel-to-llvm",
      "prec-convert-kernel-to-std, then the passes to the LLVM dialect that the JIT compiles",
      [](OpPassManager &pm) {
        pm.addPass(createConvertKernelToStandard());
        buildKernelToLLVMPipeline(pm);
      });
}
