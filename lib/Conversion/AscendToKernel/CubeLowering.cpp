//===- CubeLowering.cpp - MatMul, BatchMatMul and convolutions on the cube -===//
//
// A matrix multiply reads its operands as [batch, rows, cols] views of GM;
// a convolution reads its input as the patch matrix (img2col, as CANN's
// load3d does) and its filter as [groups, Cout/group, C/group*kh*kw], so
// both are one multiply-accumulate skeleton (CubeKernel.h) with fp32
// accumulation and one rounding in the fixpipe. The small-channel path
// (OP-3: enable_small_channel=1, C <= 4) pads channels to 4 instead of 16,
// which shrinks K, and with it the cube's work, up to four times.
//
//===----------------------------------------------------------------------===//

#include "CubeKernel.h"
#include "LoweringTables.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Policy/Soc.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

#include <numeric>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

/// A matrix operand as [batch, rows, cols].
SmallVector<int64_t> asBatchedMatrix(ShapedType type) {
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.size() == 1)
    return {1, 1, shape[0]};
  return {ShapedType::getNumElements(shape.drop_back(2)), shape[shape.size() - 2], shape.back()};
}

/// The shape facts of a (batch) matrix multiply.
struct MatMulShape {
  SmallVector<int64_t> a, b, c; ///< [batch, rows, cols] views
  bool transposeA = false, transposeB = false;
  CubeProblem problem;
};

MatMulShape matMulShape(Operation *op, Value x1, Value x2, bool transposeA, bool transposeB) {
  MatMulShape shape;
  shape.a = asBatchedMatrix(cast<ShapedType>(x1.getType()));
  shape.b = asBatchedMatrix(cast<ShapedType>(x2.getType()));
  shape.c = asBatchedMatrix(cast<ShapedType>(op->getResult(0).getType()));
  shape.transposeA = transposeA;
  shape.transposeB = transposeB;
  Type in = getElementTypeOrSelf(x1.getType());
  shape.problem = {shape.c[0], shape.c[1], shape.c[2],
                   transposeA ? shape.a[1] : shape.a[2],
                   static_cast<int64_t>(in.getIntOrFloatBitWidth()),
                   static_cast<int64_t>(
                       getElementTypeOrSelf(op->getResult(0).getType()).getIntOrFloatBitWidth())};
  return shape;
}

std::optional<std::string> checkCubeInputs(Operation *op, Type in, Type other,
                                           const LoweringContext &context) {
  if (in != other)
    return std::string("multiplies two dtypes; the cube takes one");
  if (!context.target.cubeTakes(in)) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "the " << context.target.getSoc().getValue() << "'s cube does not take " << in
       << " inputs";
    return text;
  }
  return std::nullopt;
}

/// The skeleton's tiling and loads for a (batch) matrix multiply.
PreparedCube prepareMatMul(KernelBuilder &kb, Operation *op, Value x1, Value x2, bool hasBias,
                           bool transposeA, bool transposeB, const LoweringContext &context,
                           int64_t epilogueBytes) {
  MatMulShape shape = matMulShape(op, x1, x2, transposeA, transposeB);
  shape.problem.epilogueBytes = epilogueBytes;
  PreparedCube cube;
  Value a = kb.reshapeGM(kb.arg(0), shape.a);
  Value b = kb.reshapeGM(kb.arg(1), shape.b);
  if (hasBias)
    cube.bias = kb.arg(2);
  cube.output = kb.reshapeGM(kb.output(), shape.c);
  cube.spec.tiling = cubeTilingFor(shape.problem, context);
  cube.spec.outerSizes = {shape.c[0]};
  cube.spec.inputType = getElementTypeOrSelf(x1.getType());
  Location loc = kb.loc();
  Value zero = kb.index(0);
  int64_t batchA = shape.a[0], batchB = shape.b[0];
  // An operand without batch dimensions is the same matrix for every batch.
  auto batchOf = [zero](int64_t batch, const TilePosition &pos) {
    return batch == 1 ? zero : pos.outer[0];
  };
  cube.spec.loadA = [=](OpBuilder &builder, const TilePosition &pos, Value k, Value l1) {
    Value batch = batchOf(batchA, pos);
    SmallVector<Value> at = transposeA ? SmallVector<Value>{batch, k, pos.m}
                                       : SmallVector<Value>{batch, pos.m, k};
    auto load = loadTile(builder, loc, a, at, l1);
    load.setTranspose(transposeA);
  };
  cube.spec.loadB = [=](OpBuilder &builder, const TilePosition &pos, Value k, Value l1) {
    Value batch = batchOf(batchB, pos);
    SmallVector<Value> at = transposeB ? SmallVector<Value>{batch, pos.n, k}
                                       : SmallVector<Value>{batch, k, pos.n};
    auto load = loadTile(builder, loc, b, at, l1);
    load.setTranspose(transposeB);
  };
  cube.outputOffsets = [](const TilePosition &pos) {
    return SmallVector<Value>{pos.outer[0], pos.m, pos.n};
  };
  cube.biasOuter = [](const TilePosition &) { return SmallVector<Value>{}; };
  return cube;
}

PreparedCube prepareConv(KernelBuilder &kb, Operation *op, const LoweringContext &context,
                         int64_t epilogueBytes) {
  ConvViews views = buildConvViews(kb, op, context);
  PreparedCube cube;
  cube.spec = convSpec(kb, op, views, context, epilogueBytes);
  cube.output = views.y;
  cube.bias = views.bias;
  cube.transposeOutput = true;
  cube.outputOffsets = [](const TilePosition &pos) {
    return SmallVector<Value>{pos.outer[0], pos.outer[1], pos.n, pos.m};
  };
  cube.biasOuter = [](const TilePosition &pos) { return SmallVector<Value>{pos.outer[1]}; };
  return cube;
}

/// MatMulV2, BatchMatMulV2 and the convolutions: the skeleton with a
/// fixpipe into GM.
template <typename OpT>
struct CubeLowering : OpRewritePattern<OpT> {
  CubeLowering(MLIRContext *ctx, LoweringContext &context)
      : OpRewritePattern<OpT>(ctx), context(context) {}

  LogicalResult matchAndRewrite(OpT op, PatternRewriter &rewriter) const override {
    typename OpT::Adaptor adaptor(op);
    if (launchCachedKernel(rewriter, context, op, adaptor.getOperands()))
      return success();
    KernelBuilder kb(rewriter, context, op, Engine::Cube, adaptor.getOperands().getTypes(),
                     op->getResultTypes(), nodesOf(op));
    // FU-4 on a SoC with no FixPipe: the converted tile goes through UB,
    // where the bias is added in the output dtype.
    bool throughUB = biasAddedAfterConversion(op, context);
    Type outType = getElementTypeOrSelf(op->getResult(0).getType());
    int64_t epilogueBytes =
        throughUB ? elementBytes(outType) + elementBytes(op->getOperand(2).getType()) : 0;
    PreparedCube cube = prepareCube(kb, op, context, epilogueBytes);
    cube.spec.epilogue = [&kb, &cube, throughUB, outType](OpBuilder &b, const TilePosition &pos,
                                                          Value acc) {
      if (!throughUB) {
        Value bias = fixpipeBias(kb, b, cube, pos);
        FixpipeOp::create(b, kb.loc(), acc, cube.output, cube.outputOffsets(pos), bias,
                          RoundingMode::Rint, /*relu=*/false, cube.transposeOutput);
        return;
      }
      Value tile = kb.alloc({cube.spec.tiling.mTile, cube.spec.tiling.nTile}, outType,
                            MemorySpace::UB);
      FixpipeOp::create(b, kb.loc(), acc, tile, ValueRange{}, Value(), RoundingMode::Rint,
                        /*relu=*/false, /*transpose=*/false);
      addBiasAfterConversion(kb, b, cube, pos, tile);
      auto store = storeTile(b, kb.loc(), tile, cube.output, cube.outputOffsets(pos));
      store.setTranspose(cube.transposeOutput);
    };
    buildCubeKernel(kb, cube.spec);
    kb.replaceWithLaunch(rewriter, op, adaptor.getOperands());
    return success();
  }

  LoweringContext &context;
};

} // namespace

bool ascendprec::kernel::biasAddedAfterConversion(Operation *op, const LoweringContext &context) {
  auto conv = dyn_cast<ascend::Conv2DOp>(op);
  if (!conv)
    return false;
  Type out = getElementTypeOrSelf(conv.getY().getType());
  std::optional<policy::SocInfo> soc = policy::lookupSoc(context.target.getSoc().str());
  return soc && soc->addsConvBiasAfterConversion(static_cast<bool>(conv.getBias()),
                                                 out.isF16() || out.isBF16());
}

void ascendprec::kernel::addBiasAfterConversion(KernelBuilder &kb, OpBuilder &b,
                                                const PreparedCube &cube, const TilePosition &pos,
                                                Value tile) {
  if (!cube.biasAfterConversion)
    return;
  Type tileType = getElementTypeOrSelf(tile.getType());
  Value bias = kb.alloc({1, cube.spec.tiling.nTile}, getElementTypeOrSelf(cube.bias.getType()),
                        MemorySpace::UB);
  SmallVector<Value> offsets(cube.biasOuter(pos));
  offsets.push_back(pos.n);
  loadTile(b, kb.loc(), cube.bias, offsets, bias);
  vectorOp(b, kb.loc(), "add", ValueRange{tile, bias}, tile, tileType);
}

PreparedCube ascendprec::kernel::prepareCube(KernelBuilder &kb, Operation *op,
                                             const LoweringContext &context,
                                             int64_t epilogueBytes) {
  if (auto matmul = dyn_cast<ascend::MatMulV2Op>(op))
    return prepareMatMul(kb, op, matmul.getX1(), matmul.getX2(),
                         static_cast<bool>(matmul.getBias()), matmul.getTransposeX1(),
                         matmul.getTransposeX2(), context, epilogueBytes);
  if (auto batch = dyn_cast<ascend::BatchMatMulV2Op>(op))
    return prepareMatMul(kb, op, batch.getX1(), batch.getX2(), static_cast<bool>(batch.getBias()),
                         batch.getAdjX1(), batch.getAdjX2(), context, epilogueBytes);
  PreparedCube cube = prepareConv(kb, op, context, epilogueBytes);
  cube.biasAfterConversion = biasAddedAfterConversion(op, context);
  return cube;
}

Value ascendprec::kernel::fixpipeBias(KernelBuilder &kb, OpBuilder &b, const PreparedCube &cube,
                                      const TilePosition &pos) {
  if (!cube.bias || cube.biasAfterConversion)
    return {};
  return loadBiasForFixpipe(kb, b, cube.bias, cube.biasOuter(pos), pos.n, cube.spec.tiling.nTile,
                            cubeAccumulatorType(cube.spec.inputType));
}

//===----------------------------------------------------------------------===//
// Convolutions (Conv2D, Conv3D and their transposed forms)
//===----------------------------------------------------------------------===//

namespace {

/// A convolution or a transposed one, 2-D or 3-D, as the lowering needs it.
struct ConvOperands {
  Value x, filter, bias, y;
  ArrayRef<int64_t> strides, pads, dilations, outputPadding;
  int64_t groups = 1;
  bool transposed = false; ///< Conv2DBackpropInput, Conv3DBackpropInput (ConvTranspose)
};

template <typename ConvT>
ConvOperands convolutionOperands(ConvT conv) {
  return {conv.getX(), conv.getFilter(), conv.getBias(), conv.getY(), conv.getStrides(),
          conv.getPads(), conv.getDilations(), {}, static_cast<int64_t>(conv.getGroups()),
          false};
}

template <typename DeconvT>
ConvOperands transposedOperands(DeconvT deconv) {
  return {deconv.getX(), deconv.getFilter(), deconv.getBias(), deconv.getY(),
          deconv.getStrides(), deconv.getPads(), deconv.getDilations(),
          deconv.getOutputPadding(), static_cast<int64_t>(deconv.getGroups()), true};
}

ConvOperands convOperands(Operation *op) {
  if (auto conv = dyn_cast<ascend::Conv2DOp>(op))
    return convolutionOperands(conv);
  if (auto conv = dyn_cast<ascend::Conv3DOp>(op))
    return convolutionOperands(conv);
  if (auto deconv = dyn_cast<ascend::Conv3DBackpropInputOp>(op))
    return transposedOperands(deconv);
  return transposedOperands(cast<ascend::Conv2DBackpropInputOp>(op));
}

/// The pads of the convolution a transposed convolution equals (on its
/// input spread out by the strides): dilation * (k - 1) - pad at each end,
/// plus the output padding at the end. Negative when the transposed
/// convolution crops more than the window reaches.
SmallVector<int64_t> equivalentPads(const ConvOperands &c, ArrayRef<int64_t> window) {
  if (!c.transposed)
    return SmallVector<int64_t>(c.pads);
  SmallVector<int64_t> pads;
  for (size_t axis = 0; axis < window.size(); ++axis) {
    int64_t reach = c.dilations[axis] * (window[axis] - 1);
    pads.push_back(reach - c.pads[2 * axis]);
    pads.push_back(reach - c.pads[2 * axis + 1] + c.outputPadding[axis]);
  }
  return pads;
}

/// How many groups of a grouped convolution CANN packs into one cube group,
/// as its conv2d implementation does (`enlarge`): enough that the packed
/// input channels fill whole C0 granules and the packed output channels
/// whole 16-column fractals, at most all of them. The packed group's filter
/// is block-diagonal, so a depthwise convolution runs 16 channels per cube
/// pass instead of one (docs/lowering.md). CANN lets the last packed group
/// run short when the groups do not divide; here every packed group is
/// whole, so the factor is the largest divisor of `groups` not above
/// CANN's (docs/decisions.md).
int64_t groupEnlargement(int64_t groups, int64_t inPerGroup, int64_t outPerGroup, int64_t c0) {
  if (groups <= 1 || inPerGroup <= 0 || outPerGroup <= 0)
    return 1;
  int64_t forInput = std::lcm(inPerGroup, c0) / inPerGroup;
  int64_t forOutput = std::lcm(outPerGroup, int64_t{16}) / outPerGroup;
  int64_t enlarge = std::min(std::lcm(forInput, forOutput), groups);
  while (groups % enlarge != 0)
    --enlarge;
  return enlarge;
}

} // namespace

ConvShape ascendprec::kernel::convShape(Operation *op, const LoweringContext &context) {
  ConvOperands c = convOperands(op);
  ConvShape shape;
  auto x = cast<ShapedType>(c.x.getType());
  auto w = cast<ShapedType>(c.filter.getType());
  auto y = cast<ShapedType>(c.y.getType());
  shape.images = x.getDimSize(0);
  int64_t inPerGroup = x.getDimSize(1) / c.groups, outPerGroup = y.getDimSize(1) / c.groups;
  shape.window.assign(w.getShape().begin() + 2, w.getShape().end());
  shape.out.assign(y.getShape().begin() + 2, y.getShape().end());
  Type in = x.getElementType();
  int64_t bits = in.getIntOrFloatBitWidth();
  // The channel granule C0 is 32 bytes of the input dtype; the small-channel
  // path (OP-3) pads C <= 4 to 4 instead.
  shape.c0 = 256 / bits;
  // Transposed convolutions keep one group per cube group.
  shape.enlarge = c.transposed ? 1 : groupEnlargement(c.groups, inPerGroup, outPerGroup, shape.c0);
  shape.groups = c.groups / shape.enlarge;
  shape.channels = inPerGroup * shape.enlarge;
  shape.outChannels = outPerGroup * shape.enlarge;
  shape.smallChannel = context.enableSmallChannel && shape.channels <= 4 && bits == 16;
  if (shape.smallChannel)
    shape.c0 = 4;
  shape.problem = {shape.images * shape.groups, ShapedType::getNumElements(shape.out), shape.outChannels,
                   roundUp(shape.channels, shape.c0) * ShapedType::getNumElements(shape.window), bits,
                   static_cast<int64_t>(y.getElementTypeBitWidth())};
  return shape;
}

ConvViews ascendprec::kernel::buildConvViews(KernelBuilder &kb, Operation *op,
                                            const LoweringContext &context) {
  ConvShape shape = convShape(op, context);
  ConvOperands c = convOperands(op);
  auto x = cast<ShapedType>(c.x.getType());
  ConvViews views;
  SmallVector<int64_t> xView = {shape.images, shape.groups, shape.channels};
  llvm::append_range(xView, x.getShape().drop_front(2));
  views.x = kb.reshapeGM(kb.arg(0), xView);
  // A convolution's filter is [Cout, C/G, window...], seen per packed group
  // (grouped_filter expands it to the block diagonal); a transposed one's
  // [C, Cout/G, window...], read through transposed_filter.
  int64_t window = ShapedType::getNumElements(shape.window);
  views.w = c.transposed
                ? kb.reshapeGM(kb.arg(1), {shape.groups, shape.channels, shape.outChannels, window})
                : kb.reshapeGM(kb.arg(1), {shape.groups, shape.outChannels,
                                           shape.channels / shape.enlarge * window});
  if (c.bias)
    views.bias = kb.reshapeGM(kb.arg(2), {shape.groups, shape.outChannels});
  views.y = kb.reshapeGM(kb.output(),
                         {shape.images, shape.groups, shape.outChannels, ShapedType::getNumElements(shape.out)});
  return views;
}

CubeKernelSpec ascendprec::kernel::convSpec(KernelBuilder &kb, Operation *op,
                                           const ConvViews &views, const LoweringContext &context,
                                           int64_t epilogueBytes) {
  ConvShape shape = convShape(op, context);
  ConvOperands c = convOperands(op);
  shape.problem.epilogueBytes = epilogueBytes;
  CubeKernelSpec spec;
  spec.tiling = cubeTilingFor(shape.problem, context);
  spec.outerSizes = {shape.images, shape.groups};
  spec.inputType = getElementTypeOrSelf(c.x.getType());
  // A transposed convolution is the convolution (stride 1) of its input
  // spread out by the strides, with the flipped filter.
  SmallVector<int64_t> unit(shape.window.size(), 1);
  auto img2col = Img2ColAttr::get(
      op->getContext(), shape.window, c.transposed ? ArrayRef<int64_t>(unit) : c.strides,
      equivalentPads(c, shape.window), c.dilations, shape.out, shape.c0,
      c.transposed ? c.strides : ArrayRef<int64_t>());
  Value x = views.x, w = views.w;
  Location loc = kb.loc();
  bool transposed = c.transposed;
  spec.loadA = [x, img2col, loc](OpBuilder &b, const TilePosition &pos, Value k, Value l1) {
    auto load = loadTile(b, loc, x, ValueRange{pos.outer[0], pos.outer[1], pos.m, k}, l1);
    load.setImg2colAttr(img2col);
  };
  SmallVector<int64_t> grouped;
  if (shape.enlarge > 1)
    grouped = {shape.enlarge, ShapedType::getNumElements(shape.window)};
  spec.loadB = [w, loc, transposed, grouped](OpBuilder &b, const TilePosition &pos, Value k,
                                             Value l1) {
    if (transposed) {
      loadTile(b, loc, w, ValueRange{pos.outer[1], k, pos.n}, l1).setTransposedFilter(true);
      return;
    }
    auto load = loadTile(b, loc, w, ValueRange{pos.outer[1], pos.n, k}, l1);
    if (grouped.empty())
      load.setTranspose(true);
    else
      load.setGroupedFilter(grouped);
  };
  return spec;
}

std::optional<std::string> ascendprec::kernel::whyCubeNotLowerable(Operation *op,
                                                                  const LoweringContext &context) {
  Type in, other;
  CubeProblem problem;
  if (auto matmul = dyn_cast<ascend::MatMulV2Op>(op)) {
    in = getElementTypeOrSelf(matmul.getX1().getType());
    other = getElementTypeOrSelf(matmul.getX2().getType());
    problem = matMulShape(op, matmul.getX1(), matmul.getX2(), matmul.getTransposeX1(),
                          matmul.getTransposeX2())
                  .problem;
  } else if (auto batch = dyn_cast<ascend::BatchMatMulV2Op>(op)) {
    in = getElementTypeOrSelf(batch.getX1().getType());
    other = getElementTypeOrSelf(batch.getX2().getType());
    MatMulShape shape =
        matMulShape(op, batch.getX1(), batch.getX2(), batch.getAdjX1(), batch.getAdjX2());
    if ((shape.a[0] != 1 && shape.a[0] != shape.c[0]) ||
        (shape.b[0] != 1 && shape.b[0] != shape.c[0]))
      return std::string("broadcasts batch dimensions partly (each operand's batch is the "
                         "output's or 1 in this lowering)");
    if (cast<ShapedType>(batch.getX1().getType()).getRank() < 2 ||
        cast<ShapedType>(batch.getX2().getType()).getRank() < 2)
      return std::string("multiplies a 1-D operand (reshape it to a matrix)");
    problem = shape.problem;
  } else if (isa<ascend::Conv2DOp, ascend::Conv2DBackpropInputOp, ascend::Conv3DOp,
                 ascend::Conv3DBackpropInputOp>(op)) {
    ConvOperands c = convOperands(op);
    in = getElementTypeOrSelf(c.x.getType());
    other = getElementTypeOrSelf(c.filter.getType());
    ConvShape shape = convShape(op, context);
    problem = shape.problem;
    if (llvm::any_of(equivalentPads(c, shape.window), [](int64_t pad) { return pad < 0; }))
      return std::string("crops more than its window reaches (pads above dilation * (k - 1))");
  } else {
    return std::nullopt;
  }
  if (std::optional<std::string> why = checkCubeInputs(op, in, other, context))
    return why;
  if (chooseCubeTiling(problem, context.facts, context.cubeCores).kTile == 0)
    return std::string("has no tile that fits L0A/L0B/L0C");
  return std::nullopt;
}

void ascendprec::kernel::populateCubeLoweringPatterns(RewritePatternSet &patterns,
                                                      LoweringContext &context) {
  patterns.add<CubeLowering<ascend::MatMulV2Op>, CubeLowering<ascend::BatchMatMulV2Op>,
               CubeLowering<ascend::Conv2DOp>, CubeLowering<ascend::Conv2DBackpropInputOp>,
               CubeLowering<ascend::Conv3DOp>, CubeLowering<ascend::Conv3DBackpropInputOp>>(
      patterns.getContext(), context);
}
