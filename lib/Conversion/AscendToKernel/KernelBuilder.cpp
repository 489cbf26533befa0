//===- KernelBuilder.cpp - building one akernel.kernel --------------------===//

#include "KernelBuilder.h"
#include "LoweringTables.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Support/AttrDictAssembly.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

MemRefType ascendprec::kernel::gmTypeOf(Type tensorType) {
  auto shaped = cast<ShapedType>(tensorType);
  return MemRefType::get(shaped.getShape(), shaped.getElementType(), MemRefLayoutAttrInterface(),
                         MemorySpaceAttr::get(shaped.getContext(), MemorySpace::GM));
}

MemRefType ascendprec::kernel::localType(ArrayRef<int64_t> shape, Type elementType,
                                         MemorySpace space) {
  return MemRefType::get(shape, elementType, MemRefLayoutAttrInterface(),
                         MemorySpaceAttr::get(elementType.getContext(), space));
}

int64_t ascendprec::kernel::elementBytes(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (!element.isIntOrFloat())
    return 1;
  return std::max<int64_t>((element.getIntOrFloatBitWidth() + 7) / 8, 1);
}

LoadOp ascendprec::kernel::loadTile(OpBuilder &b, Location loc, Value source, ValueRange offsets,
                                    Value target) {
  return LoadOp::create(b, loc, source, offsets, target, /*transpose=*/nullptr,
                        /*broadcast=*/nullptr, /*img2col=*/nullptr,
                        /*transposed_filter=*/nullptr, /*grouped_filter=*/nullptr);
}

StoreOp ascendprec::kernel::storeTile(OpBuilder &b, Location loc, Value source, Value target,
                                      ValueRange offsets) {
  return StoreOp::create(b, loc, source, target, offsets, /*atomic=*/nullptr,
                         /*transpose=*/nullptr);
}

VectorOp ascendprec::kernel::vectorOp(OpBuilder &b, Location loc, StringRef kind,
                                      ValueRange inputs, Value output, Type compute) {
  return VectorOp::create(b, loc, kind, inputs, output, compute,
                          RoundingMode::Rint, /*newton=*/false, /*params=*/nullptr);
}

void ascendprec::kernel::convertInto(OpBuilder &b, Location loc, Value value, Value target) {
  Type from = getElementTypeOrSelf(value.getType());
  if (from == getElementTypeOrSelf(target.getType()))
    vectorOp(b, loc, "copy", ValueRange{value}, target, from);
  else
    kernel::CastOp::create(b, loc, value, target, RoundingMode::Rint);
}

KernelBuilder::KernelBuilder(RewriterBase &rewriter, LoweringContext &context,
                             Operation *anchor, Engine engine, TypeRange inputs,
                             TypeRange outputs, ArrayRef<std::string> nodes)
    : context(context), body(rewriter.getContext()), location(anchor->getLoc()),
      numInputs(inputs.size()) {
  MLIRContext *ctx = rewriter.getContext();
  StringRef name = "kernel";
  if (auto named = anchor->getAttrOfType<StringAttr>("name"))
    name = named.getValue();
  SmallVector<Attribute> nodeNames;
  for (const std::string &node : nodes)
    nodeNames.push_back(StringAttr::get(ctx, node));
  // Built detached and inserted by the launch, so a symbol is only ever
  // added for a kernel that is used.
  OpBuilder detached(ctx);
  kernelOp = KernelOp::create(detached, location, StringAttr::get(ctx, name),
                              EngineAttr::get(ctx, engine), detached.getI64IntegerAttr(1),
                              ArrayAttr::get(ctx, nodeNames), /*double_buffer=*/nullptr,
                              /*tiling=*/nullptr, /*host_tiling=*/nullptr);
  Block *entry = new Block();
  kernelOp.getBody().push_back(entry);
  for (Type type : inputs)
    entry->addArgument(gmTypeOf(type), location);
  for (Type type : outputs)
    entry->addArgument(gmTypeOf(type), location);
  body.setInsertionPointToStart(entry);
}

Value KernelBuilder::arg(unsigned index) const {
  return const_cast<KernelOp &>(kernelOp).getBody().front().getArgument(index);
}

Value KernelBuilder::alloc(ArrayRef<int64_t> shape, Type elementType, MemorySpace space) {
  // Buffers are allocated at the top of the kernel, outside every loop.
  OpBuilder::InsertionGuard guard(body);
  body.setInsertionPointToStart(&kernelOp.getBody().front());
  return AllocOp::create(body, location, localType(shape, elementType, space));
}

Value KernelBuilder::index(int64_t value) {
  return arith::ConstantIndexOp::create(body, location, value);
}

Value KernelBuilder::reshapeGM(Value gm, ArrayRef<int64_t> shape) {
  auto type = cast<MemRefType>(gm.getType());
  if (type.getShape() == shape)
    return gm;
  // The same contiguous bytes with another shape: row-major strides.
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t axis = static_cast<int64_t>(shape.size()) - 2; axis >= 0; --axis)
    strides[axis] = strides[axis + 1] * shape[axis + 1];
  auto layout = StridedLayoutAttr::get(body.getContext(), 0, strides);
  auto resultType = MemRefType::get(shape, type.getElementType(), layout, type.getMemorySpace());
  return memref::ReinterpretCastOp::create(body, location, resultType, gm, /*offset=*/0, shape,
                                           strides);
}

Value KernelBuilder::openTileLoop(int64_t tiles, int64_t blockDim) {
  // An empty tensor (a zero-size dimension) has no tiles; its kernel still
  // runs on one block, doing nothing.
  kernelOp.setBlockDim(std::max<int64_t>(blockDim, 1));
  Value block = BlockIdxOp::create(body, location, body.getIndexType());
  return openLoopFrom(block, tiles, blockDim);
}

Value KernelBuilder::openLoop(int64_t bound, int64_t step) {
  return openLoopFrom(index(0), bound, step);
}

Value KernelBuilder::openLoopFrom(Value lower, int64_t bound, int64_t step) {
  auto loop = scf::ForOp::create(body, location, lower, index(bound), index(step));
  loopExits.push_back(body.saveInsertionPoint());
  loopExits.back() = OpBuilder::InsertPoint(loop->getBlock(), std::next(loop->getIterator()));
  body.setInsertionPoint(loop.getBody()->getTerminator());
  return loop.getInductionVar();
}

void KernelBuilder::closeLoop() {
  body.restoreInsertionPoint(loopExits.pop_back_val());
}

void KernelBuilder::setTiling(ArrayRef<std::pair<StringRef, int64_t>> entries) {
  SmallVector<NamedAttribute> attrs;
  for (auto [key, value] : entries)
    attrs.push_back(body.getNamedAttr(key, body.getI64IntegerAttr(value)));
  kernelOp.setTilingAttr(body.getDictionaryAttr(attrs));
}

bool ascendprec::kernel::isBookkeepingAttr(NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  return name == "name" || name == "absorbed" || name == "fused_by" ||
         name.starts_with("ascend.") || name.starts_with("onnx.") ||
         isa<ascend::PrecisionAttr>(attr.getValue());
}

std::string ascendprec::kernel::kernelSignature(Operation *op, TypeRange operandTypes) {
  // Types and attributes are uniqued in the context, so their addresses
  // stand for their values: the key is a run of pointers (printing the
  // types took a third of the lowering of a 200k-op graph). Counts keep
  // operand, result and attribute lists apart.
  SmallVector<const void *, 16> key;
  key.push_back(op->getName().getAsOpaquePointer());
  key.push_back(reinterpret_cast<const void *>(operandTypes.size()));
  for (Type type : operandTypes)
    key.push_back(type.getAsOpaquePointer());
  key.push_back(reinterpret_cast<const void *>(op->getNumResults()));
  for (Type type : op->getResultTypes())
    key.push_back(type.getAsOpaquePointer());
  // The attributes without uniquing a dictionary of them: the discardable
  // ones sorted, the inherent ones in their op's fixed order, so equal
  // attributes give equal keys.
  // A Cast planning inserted and a model's own Cast compute alike but differ
  // in the fp32 reference (akernel.vcast's model_rounding).
  key.push_back(reinterpret_cast<const void *>(
      static_cast<uintptr_t>(op->hasAttr("ascend.inserted") ? 2 : 1)));
  SmallVector<NamedAttribute, 8> attrs;
  assembly::collectAttrs(op, attrs);
  for (NamedAttribute attr : attrs) {
    // Of the decision, only the engine changes the kernel (the dtypes are
    // in the types).
    if (auto decision = dyn_cast<ascend::PrecisionAttr>(attr.getValue())) {
      key.push_back(reinterpret_cast<const void *>(
          static_cast<uintptr_t>(decision.getEngine()) + 1));
      continue;
    }
    if (!isBookkeepingAttr(attr)) {
      key.push_back(attr.getName().getAsOpaquePointer());
      key.push_back(attr.getValue().getAsOpaquePointer());
    }
  }
  return std::string(reinterpret_cast<const char *>(key.data()), key.size() * sizeof(void *));
}

bool ascendprec::kernel::launchCachedKernel(RewriterBase &rewriter, LoweringContext &context,
                                            Operation *op, ValueRange operands) {
  auto found = context.kernelBySignature.find(kernelSignature(op, operands.getTypes()));
  if (found == context.kernelBySignature.end())
    return false;
  rewriter.setInsertionPoint(op);
  auto launch = LaunchOp::create(rewriter, op->getLoc(), op->getResultTypes(),
                                 FlatSymbolRefAttr::get(op->getContext(), found->second), operands,
                                 nodesAttrOf(op));
  rewriter.replaceOp(op, launch.getResults());
  return true;
}

LaunchOp KernelBuilder::createLaunch(RewriterBase &rewriter, Location loc, ValueRange operands,
                                     TypeRange results, StringRef signature) {
  Operation *anchor = rewriter.getInsertionBlock()->getParentOp();
  while (anchor && !isa<func::FuncOp>(anchor))
    anchor = anchor->getParentOp();
  {
    OpBuilder::InsertionGuard guard(rewriter);
    if (anchor)
      rewriter.setInsertionPoint(anchor);
    rewriter.insert(kernelOp);
  }
  // Renames the kernel when another one has its name (node names can repeat
  // across UB groups and split ops).
  context.symbols->insert(kernelOp);
  if (!signature.empty())
    context.kernelBySignature[signature] = kernelOp.getSymName().str();
  return LaunchOp::create(rewriter, loc, results,
                          FlatSymbolRefAttr::get(kernelOp.getSymNameAttr()), operands,
                          kernelOp.getNodesAttr());
}

void KernelBuilder::replaceWithLaunch(RewriterBase &rewriter, Operation *op,
                                      ValueRange operands) {
  rewriter.setInsertionPoint(op);
  LaunchOp launch = createLaunch(rewriter, op->getLoc(), operands, op->getResultTypes(),
                                 kernelSignature(op, operands.getTypes()));
  rewriter.replaceOp(op, launch.getResults());
}
