//===- KernelHostOps.cpp - launches, views and the img2col attribute ------===//
//
// The host side of a lowered graph: launches bind tensors to a kernel's GM
// arguments, views change a shape without moving data.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto kernel = symbolTable.lookupNearestSymbolFrom<KernelOp>(*this, getKernelAttr());
  if (!kernel)
    return emitOpError("launches '") << getKernel() << "', which is not an akernel.kernel";
  Block &body = kernel.getBody().front();
  size_t expected = getArgs().size() + getResults().size();
  if (body.getNumArguments() != expected)
    return emitOpError("binds ") << expected << " tensors to @" << getKernel()
                                 << ", which takes " << body.getNumArguments()
                                 << " GM buffers (inputs, then outputs)";
  SmallVector<Type> bound(getArgs().getTypes());
  llvm::append_range(bound, getResults().getTypes());
  for (auto [index, tensor, arg] : llvm::enumerate(bound, body.getArgumentTypes())) {
    auto tensorType = cast<ShapedType>(tensor);
    auto bufferType = cast<ShapedType>(arg);
    if (tensorType.getShape() != bufferType.getShape() ||
        tensorType.getElementType() != bufferType.getElementType())
      return emitOpError("binds ") << tensor << " to @" << getKernel() << "'s argument #"
                                   << index << " of type " << arg;
  }
  return success();
}

LogicalResult ViewOp::verify() {
  auto source = cast<ShapedType>(getSource().getType());
  auto result = cast<ShapedType>(getResult().getType());
  if (source.getElementType() != result.getElementType())
    return emitOpError("keeps the dtype: ")
           << source.getElementType() << " is not " << result.getElementType();
  if (source.hasStaticShape() && result.hasStaticShape() &&
      source.getNumElements() != result.getNumElements())
    return emitOpError("views ") << source.getNumElements() << " elements as "
                                 << result.getNumElements();
  return success();
}

LogicalResult Img2ColAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                                  ArrayRef<int64_t> pads, ArrayRef<int64_t> dilations,
                                  ArrayRef<int64_t> out, int64_t c0,
                                  ArrayRef<int64_t> inputDilations) {
  size_t axes = kernel.size();
  if ((axes != 2 && axes != 3) || strides.size() != axes || dilations.size() != axes ||
      out.size() != axes || pads.size() != 2 * axes)
    return emitError() << "img2col takes 2 (or, for a 3-D convolution, 3) kernel sizes, "
                          "strides, dilations and output sizes and a pair of pads per axis "
                          "(top, bottom, left, right; front and back first in 3-D)";
  auto positive = [](ArrayRef<int64_t> values) {
    return llvm::all_of(values, [](int64_t value) { return value > 0; });
  };
  if (!positive(kernel) || !positive(strides) || !positive(dilations) || !positive(out) ||
      llvm::any_of(pads, [](int64_t pad) { return pad < 0; }))
    return emitError() << "img2col sizes, strides and dilations are positive, pads not negative";
  if (!inputDilations.empty() && (inputDilations.size() != axes || !positive(inputDilations)))
    return emitError() << "img2col's input_dilations are " << axes << " positive factors";
  if (c0 != 4 && c0 != 8 && c0 != 16 && c0 != 32)
    return emitError() << "img2col's channel granule c0 is 4 (small channel), 8, 16 or 32, not "
                       << c0;
  return success();
}
