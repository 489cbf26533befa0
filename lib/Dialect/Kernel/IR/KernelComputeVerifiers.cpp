//===- KernelComputeVerifiers.cpp - cube, vector and AI CPU ops -----------===//
//
// What the compute units can do: the cube's dtype pairs and fractal
// alignment on the SoC's target, the vector ops and the dtypes they compute
// in, reductions and casts on UB, AI CPU calls in AI CPU kernels.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

bool inSpace(Value value, MemorySpace space) { return memorySpaceOf(value.getType()) == space; }

int64_t numElements(Value value) { return cast<ShapedType>(value.getType()).getNumElements(); }

/// The accumulator the cube uses for inputs of `type`, if it has one.
Type accumulatorFor(Type type) {
  MLIRContext *context = type.getContext();
  if (type.isF16() || type.isBF16() || type.isF32())
    return Float32Type::get(context);
  if (type.isInteger(8))
    return IntegerType::get(context, 32);
  return {};
}

/// The dtypes the vector unit computes in.
bool isVectorComputeType(Type type) {
  return type.isF16() || type.isF32() || type.isBF16() || type.isInteger(64) || type.isInteger(32) ||
         type.isInteger(16) || type.isInteger(8) || type.isInteger(1);
}

/// Vector op kinds and their input counts.
const llvm::StringMap<unsigned> &vectorKinds() {
  static const llvm::StringMap<unsigned> kinds = {
      {"abs", 1},     {"neg", 1},     {"exp", 1},      {"log", 1},        {"sqrt", 1},
      {"rsqrt", 1},   {"reciprocal", 1}, {"relu", 1},  {"leaky_relu", 1}, {"sigmoid", 1},
      {"tanh", 1},    {"gelu", 1},    {"erf", 1},      {"sin", 1},        {"cos", 1},
      {"floor", 1},   {"ceil", 1},    {"round", 1},    {"sign", 1},       {"not", 1},
      {"copy", 1},    {"add", 2},     {"sub", 2},      {"mul", 2},        {"div", 2},
      {"max", 2},     {"min", 2},     {"pow", 2},      {"and", 2},        {"or", 2},
      {"cmp_eq", 2},  {"cmp_lt", 2},  {"cmp_gt", 2},   {"cmp_le", 2},     {"cmp_ge", 2},
      {"select", 3},  {"clip", 3},
      {"hard_sigmoid", 1}, {"hard_swish", 1}, {"softplus", 1}, {"softsign", 1},
      {"elu", 1},     {"selu", 1},    {"thresholded_relu", 1}, {"tan", 1},
      {"asin", 1},    {"acos", 1},    {"atan", 1},     {"sinh", 1},       {"cosh", 1},
      {"asinh", 1},   {"acosh", 1},   {"atanh", 1},    {"is_inf", 1},     {"is_nan", 1},
      {"mod", 2},     {"floor_mod", 2}, {"prelu", 2},  {"xor", 2},        {"cmp_ne", 2},
      {"muls", 1},    {"adds", 1}};
  return kinds;
}

} // namespace

LogicalResult MmadOp::verify() {
  if (!inSpace(getLhs(), MemorySpace::L0A) || !inSpace(getRhs(), MemorySpace::L0B) ||
      !inSpace(getAcc(), MemorySpace::L0C))
    return emitOpError("multiplies L0A x L0B into L0C: operands in #akernel.space<l0a>, "
                       "<l0b> and <l0c>");
  auto lhs = cast<MemRefType>(getLhs().getType());
  auto rhs = cast<MemRefType>(getRhs().getType());
  auto acc = cast<MemRefType>(getAcc().getType());
  if (lhs.getRank() != 2 || rhs.getRank() != 2 || acc.getRank() != 2)
    return emitOpError("takes 2-D tiles [M,K] x [K,N] -> [M,N]");
  int64_t m = lhs.getDimSize(0), k = lhs.getDimSize(1), n = rhs.getDimSize(1);
  if (rhs.getDimSize(0) != k || acc.getDimSize(0) != m || acc.getDimSize(1) != n)
    return emitOpError("has mismatched tiles: ")
           << lhs.getShape() << " x " << rhs.getShape() << " -> " << acc.getShape();
  Type in = lhs.getElementType();
  if (rhs.getElementType() != in)
    return emitOpError("multiplies ") << in << " by " << rhs.getElementType()
                                      << "; both inputs have one dtype";
  Type expected = accumulatorFor(in);
  if (!expected || acc.getElementType() != expected)
    return emitOpError("accumulates ")
           << in << " inputs in " << (expected ? expected : in) << " (f16/bf16/f32 -> f32, "
           << "i8 -> i32), not " << acc.getElementType();
  TargetAttr target = targetOf(*this);
  if (!target)
    return emitOpError("needs an #akernel.target on an enclosing op");
  if (!target.cubeTakes(in)) {
    std::string taken;
    llvm::raw_string_ostream os(taken);
    llvm::interleaveComma(target.getCubeInputs(), os,
                          [&](Attribute entry) { cast<TypeAttr>(entry).getValue().print(os); });
    return emitOpError("the ") << target.getSoc().getValue() << "'s cube does not take " << in
                               << " inputs (it takes " << taken << ")";
  }
  // One fractal is cube_k elements of 16 bits deep: K counts in 32s for
  // int8 and in 8s for fp32.
  int64_t kStep = target.getCubeK() * 16 / static_cast<int64_t>(in.getIntOrFloatBitWidth());
  if (m % target.getCubeM() || n % target.getCubeN() || k % kStep)
    return emitOpError("tile ")
           << m << "x" << k << "x" << n << " (MxKxN) is not aligned to the " << in
           << " fractal: M in " << target.getCubeM() << "s, K in " << kStep << "s, N in "
           << target.getCubeN() << "s (pad the tile)";
  return success();
}

LogicalResult VectorOp::verify() {
  auto kind = vectorKinds().find(getKind());
  if (kind == vectorKinds().end())
    return emitOpError("has an unknown kind '") << getKind() << "'";
  if (getInputs().size() != kind->second)
    return emitOpError("'") << getKind() << "' takes " << kind->second << " inputs, not "
                            << getInputs().size();
  if (!isVectorComputeType(getCompute()))
    return emitOpError("computes in ") << getCompute()
                                       << "; the vector unit computes in f16, f32, bf16 or "
                                          "integers";
  if (getNewton() && getKind() != "reciprocal" && getKind() != "rsqrt" && getKind() != "div")
    return emitOpError("has a Newton step, which refines reciprocal, rsqrt and div only");
  if ((getKind() == "muls" || getKind() == "adds") && (!getParams() || getParams()->size() != 1))
    return emitOpError("'") << getKind() << "' takes its scalar in params";
  auto output = cast<ShapedType>(getOutput().getType());
  SmallVector<Value> buffers(getInputs());
  buffers.push_back(getOutput());
  for (Value value : buffers) {
    if (!inSpace(value, MemorySpace::UB))
      return emitOpError("works on UB: ") << value.getType() << " is not in #akernel.space<ub>";
    auto type = cast<ShapedType>(value.getType());
    if (type.getNumElements() == output.getNumElements() || type.getNumElements() == 1)
      continue;
    // Within a tile, an input may broadcast along dimensions of size 1 (a
    // row's maximum against the row).
    bool broadcasts = type.getRank() == output.getRank() &&
                      llvm::all_of(llvm::zip_equal(type.getShape(), output.getShape()),
                                   [](auto dims) {
                                     auto [in, out] = dims;
                                     return in == out || in == 1;
                                   });
    if (!broadcasts)
      return emitOpError("mixes ") << type.getNumElements() << " and "
                                   << output.getNumElements()
                                   << " elements (an input is the output's size, a scalar, or "
                                      "broadcasts along dimensions of 1)";
  }
  return success();
}

LogicalResult ReduceOp::verify() {
  static const char *const kKinds[] = {"sum", "max", "min", "prod", "mean", "argmax", "argmin"};
  if (!llvm::is_contained(kKinds, getKind()))
    return emitOpError("has an unknown kind '")
           << getKind() << "' (sum, max, min, prod, mean, argmax, argmin)";
  if (!inSpace(getInput(), MemorySpace::UB) || !inSpace(getOutput(), MemorySpace::UB))
    return emitOpError("reduces on UB: input and output in #akernel.space<ub>");
  auto input = cast<ShapedType>(getInput().getType());
  int64_t rank = input.getRank();
  llvm::SmallDenseSet<int64_t> seen;
  int64_t kept = input.getNumElements();
  for (int64_t axis : getAxes()) {
    if (axis < 0 || axis >= rank || !seen.insert(axis).second)
      return emitOpError("has axis ") << axis << " for a rank-" << rank
                                      << " input (axes are distinct, 0 to rank-1)";
    kept /= std::max<int64_t>(input.getDimSize(axis), 1);
  }
  if (numElements(getOutput()) != kept) {
    std::string axes;
    llvm::raw_string_ostream os(axes);
    llvm::interleaveComma(getAxes(), os);
    return emitOpError("writes ") << numElements(getOutput()) << " elements; reducing axes ["
                                  << axes << "] leaves " << kept;
  }
  Type acc = getAcc();
  Type in = input.getElementType();
  if (getKind() == "argmax" || getKind() == "argmin") {
    // The index of the extreme, compared exactly in the input's dtype.
    Type out = getElementTypeOrSelf(getOutput().getType());
    if (!out.isSignlessInteger(32) && !out.isSignlessInteger(64))
      return emitOpError("'") << getKind() << "' writes indices in i32 or i64, not " << out;
    if (acc != in)
      return emitOpError("'") << getKind() << "' compares in the input's dtype " << in
                              << ", not " << acc;
    return success();
  }
  bool adds = getKind() == "sum" || getKind() == "prod" || getKind() == "mean";
  if (!isVectorComputeType(acc) ||
      (adds && acc.getIntOrFloatBitWidth() < in.getIntOrFloatBitWidth()))
    return emitOpError("accumulates ") << in << " in " << acc
                                       << "; a sum accumulates in a dtype at least as wide";
  return success();
}

LogicalResult PoolOp::verify() {
  if (getKind() != "max" && getKind() != "avg")
    return emitOpError("pools with 'max' or 'avg', not '") << getKind() << "'";
  if (!inSpace(getInput(), MemorySpace::UB) || !inSpace(getOutput(), MemorySpace::UB))
    return emitOpError("pools on UB: input and output in #akernel.space<ub>");
  auto input = cast<ShapedType>(getInput().getType());
  auto output = cast<ShapedType>(getOutput().getType());
  if ((input.getRank() != 3 && input.getRank() != 4) || output.getRank() != input.getRank() ||
      input.getDimSize(0) != output.getDimSize(0))
    return emitOpError("pools [planes, H, W] tiles into [planes, Ho, Wo] tiles, or "
                       "[planes, D, H, W] into [planes, Do, Ho, Wo]");
  size_t axes = input.getRank() - 1;
  if (getKernel().size() != axes || getStrides().size() != axes || getPads().size() != 2 * axes)
    return emitOpError("takes ")
           << axes << " window sizes, " << axes << " strides and " << 2 * axes << " pads for "
           << axes << " spatial axes";
  if (llvm::any_of(getKernel(), [](int64_t v) { return v < 1; }) ||
      llvm::any_of(getStrides(), [](int64_t v) { return v < 1; }))
    return emitOpError("has a window or stride below 1");
  return success();
}

LogicalResult InterpOp::verify() {
  if (getMode() != "nearest" && getMode() != "bilinear" && getMode() != "bicubic")
    return emitOpError("interpolates with 'nearest', 'bilinear' or 'bicubic', not '")
           << getMode() << "'";
  if (getCoordinates() != "align_corners" && getCoordinates() != "half_pixel" &&
      getCoordinates() != "asymmetric")
    return emitOpError("maps coordinates by 'align_corners', 'half_pixel' or 'asymmetric', "
                       "not '")
           << getCoordinates() << "'";
  if (getPadding() != "zeros" && getPadding() != "border" && getPadding() != "reflection")
    return emitOpError("pads samples with 'zeros', 'border' or 'reflection', not '")
           << getPadding() << "'";
  if (!inSpace(getInput(), MemorySpace::UB) || !inSpace(getOutput(), MemorySpace::UB) ||
      (getGrid() && !inSpace(getGrid(), MemorySpace::UB)))
    return emitOpError("interpolates on UB: every buffer in #akernel.space<ub>");
  auto input = cast<ShapedType>(getInput().getType());
  auto output = cast<ShapedType>(getOutput().getType());
  if (input.getRank() != 3 || output.getRank() != 3 || input.getDimSize(0) != output.getDimSize(0))
    return emitOpError("interpolates [planes, H, W] tiles into [planes, Ho, Wo] tiles");
  if (getGrid()) {
    auto grid = cast<ShapedType>(getGrid().getType());
    if (grid.getRank() != 3 || grid.getDimSize(0) != output.getDimSize(1) ||
        grid.getDimSize(1) != output.getDimSize(2) || grid.getDimSize(2) != 2)
      return emitOpError("samples at a [Ho, Wo, 2] grid; this one is ") << grid;
  } else if (getMode() == "nearest") {
    return emitOpError("resizes by 'bilinear' or 'bicubic' (a nearest resize is a DMA)");
  }
  if (getOrigin().empty() != !getPlane())
    return emitOpError("takes a window's origins `at(...)` together with its `plane` sizes");
  if (getPlane()) {
    ArrayRef<int64_t> plane = *getPlane();
    if (getGrid())
      return emitOpError("samples whole planes: a window (`at`, `plane`) is for a resize");
    if (getOrigin().size() != 4 || plane.size() != 4)
      return emitOpError("takes 4 origins (input row, input column, output row, output "
                         "column) and 4 plane sizes [H, W, Ho, Wo]");
    if (input.getDimSize(1) > plane[0] || input.getDimSize(2) > plane[1] ||
        llvm::any_of(plane, [](int64_t size) { return size < 1; }))
      return emitOpError("has an input window larger than its plane ")
             << plane[0] << "x" << plane[1];
  }
  return success();
}

LogicalResult RecurrentOp::verify() {
  if (getCell() != "lstm" && getCell() != "gru" && getCell() != "rnn")
    return emitOpError("computes an 'lstm', 'gru' or 'rnn' cell, not '") << getCell() << "'";
  if (getDirection() != "forward" && getDirection() != "reverse" &&
      getDirection() != "bidirectional")
    return emitOpError("runs 'forward', 'reverse' or 'bidirectional', not '")
           << getDirection() << "'";
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel || kernel.getEngine() != Engine::Mix)
    return emitOpError("runs in a kernel whose engine is #akernel.engine<mix> (cube and "
                       "vector)");
  bool lstm = getCell() == "lstm";
  if (getHasInitC() && !lstm)
    return emitOpError("has an initial cell state only as an lstm");
  size_t expected = 3 + (getHasBias() ? 1 : 0) + (getHasSeqLength() ? 1 : 0) +
                    (getHasInitH() ? 1 : 0) + (getHasInitC() ? 1 : 0) + (lstm ? 3 : 2);
  if (getBuffers().size() != expected)
    return emitOpError("takes ") << expected << " buffers (x, w, r, the optional b, init_h, "
                                                "init_c, seq_length, then y, y_h and, for an "
                                                "lstm, y_c); "
                                 << getBuffers().size() << " given";
  for (Value buffer : getBuffers())
    if (!inSpace(buffer, MemorySpace::GM))
      return emitOpError("takes GM buffers; ") << buffer.getType() << " is not in gm";
  auto x = cast<ShapedType>(getBuffers()[0].getType());
  auto w = cast<ShapedType>(getBuffers()[1].getType());
  if (x.getRank() != 3 || w.getRank() != 3 || w.getDimSize(0) != getDirections() ||
      w.getDimSize(1) != getGates() * getHiddenSize() || w.getDimSize(2) != x.getDimSize(2))
    return emitOpError("takes x [seq, batch, input] and w [dirs, gates*hidden, input]");
  return success();
}

LogicalResult TopKOp::verify() {
  if (!inSpace(getInput(), MemorySpace::UB) || !inSpace(getValues(), MemorySpace::UB) ||
      !inSpace(getIndices(), MemorySpace::UB))
    return emitOpError("selects on UB: every buffer in #akernel.space<ub>");
  auto input = cast<ShapedType>(getInput().getType());
  auto values = cast<ShapedType>(getValues().getType());
  auto indices = cast<ShapedType>(getIndices().getType());
  if (input.getRank() != 3 || values.getShape() != indices.getShape() || values.getRank() != 3 ||
      values.getDimSize(0) != input.getDimSize(0) || values.getDimSize(2) != input.getDimSize(2) ||
      values.getDimSize(1) > input.getDimSize(1))
    return emitOpError("selects [rows, k, inner] values and indices from [rows, n, inner] "
                       "with k <= n");
  if (values.getElementType() != input.getElementType())
    return emitOpError("keeps the input's dtype in its values");
  auto index = dyn_cast<IntegerType>(indices.getElementType());
  if (!index || (index.getWidth() != 32 && index.getWidth() != 64))
    return emitOpError("writes i32 or i64 indices, not ") << indices.getElementType();
  return success();
}

LogicalResult CastOp::verify() {
  if (!inSpace(getInput(), MemorySpace::UB) || !inSpace(getOutput(), MemorySpace::UB))
    return emitOpError("converts on UB: input and output in #akernel.space<ub>");
  if (getElementTypeOrSelf(getInput().getType()) == getElementTypeOrSelf(getOutput().getType()))
    return emitOpError("converts between two dtypes; this one is ")
           << getElementTypeOrSelf(getInput().getType()) << " on both sides";
  if (numElements(getInput()) != numElements(getOutput()))
    return emitOpError("converts ") << numElements(getInput()) << " elements into "
                                    << numElements(getOutput());
  return success();
}

LogicalResult AICPUCallOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel || kernel.getEngine() != Engine::AICPU)
    return emitOpError("runs only in a kernel whose engine is #akernel.engine<aicpu>");
  for (Value buffer : getBuffers())
    if (!inSpace(buffer, MemorySpace::GM))
      return emitOpError("takes GM buffers; ") << buffer.getType() << " is not in gm";
  return success();
}
