//===- ModelIo.cpp - ATC's --input_fp16_nodes and --output_type -----------===//

#include "AscendPrec/Session/ModelIo.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Dialect/Ascend/IR/ValueNames.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace ascendprec;

namespace ascendprec::session {

namespace {


Type elementTypeOf(MLIRContext *context, policy::DType dtype) {
  Builder b(context);
  switch (dtype) {
  case policy::DType::Float16:
    return b.getF16Type();
  case policy::DType::UInt8:
    return b.getIntegerType(8, /*isSigned=*/false);
  default:
    return b.getF32Type();
  }
}

Value castTo(OpBuilder &builder, Location loc, Value value, Type element,
             const std::string &name, const char *option) {
  auto type = cast<ShapedType>(value.getType()).clone(element);
  auto castOp = ascend::CastOp::create(builder, loc, type, value, builder.getStringAttr(name),
                                       nullptr, nullptr, nullptr, nullptr);
  castOp->setAttr(ascend::kRequestedByAttr, builder.getStringAttr(option));
  return castOp;
}

LogicalResult applyFp16Inputs(func::FuncOp func, const policy::ModelInputOptions &options) {
  std::vector<std::string> names;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    names.push_back(ascend::valueName(func.getArgument(i)));
  OpBuilder builder = OpBuilder::atBlockBegin(&func.front());
  for (const std::string &wanted : options.fp16Inputs) {
    auto it = std::find(names.begin(), names.end(), wanted);
    if (it == names.end()) {
      return func.emitError() << "--input_fp16_nodes names '"
                              << policy::escapeForDisplay(wanted)
                              << "', which is not an input of the model"
                              << policy::unknownNameHint(wanted, names, "inputs");
    }
    BlockArgument arg = func.getArgument(static_cast<unsigned>(it - names.begin()));
    auto type = dyn_cast<ShapedType>(arg.getType());
    if (!type || !isa<FloatType>(type.getElementType()))
      return func.emitError() << "--input_fp16_nodes names '" << wanted
                              << "', which is not a floating-point input (" << arg.getType()
                              << ")";
    if (type.getElementType().isF16())
      continue;
    // The argument becomes float16; a Cast gives its users the model's dtype.
    Type original = type.getElementType();
    arg.setType(type.clone(builder.getF16Type()));
    Value restored = castTo(builder, func.getLoc(), arg, original, wanted + "/input_fp16",
                            "--input_fp16_nodes");
    arg.replaceAllUsesExcept(restored, restored.getDefiningOp());
  }
  return success();
}

LogicalResult applyOutputTypes(func::FuncOp func, const policy::ModelInputOptions &options) {
  auto ret = cast<func::ReturnOp>(func.front().getTerminator());
  // Each output as "node:index", the form --output_type names it by.
  std::vector<std::string> outputs;
  for (Value value : ret.getOperands()) {
    auto result = dyn_cast<OpResult>(value);
    auto op = result ? dyn_cast<ascend::AscendOpInterface>(result.getOwner()) : nullptr;
    outputs.push_back(op ? op.getNodeName().str() + ":" +
                               std::to_string(result.getResultNumber())
                         : "");
  }
  std::vector<Type> wanted(ret.getNumOperands());
  for (const policy::OutputType &request : options.outputTypes) {
    Type element = elementTypeOf(func.getContext(), request.dtype);
    if (request.node.empty()) {
      for (auto [i, value] : llvm::enumerate(ret.getOperands()))
        if (isa<FloatType>(getElementTypeOrSelf(value)))
          wanted[i] = element; // every float output
      continue;
    }
    std::string key = request.node + ":" + std::to_string(request.index);
    auto it = std::find(outputs.begin(), outputs.end(), key);
    if (it == outputs.end()) {
      std::vector<std::string> known;
      for (const std::string &output : outputs)
        if (!output.empty())
          known.push_back(output);
      return func.emitError() << "--output_type names '" << policy::escapeForDisplay(key)
                              << "', which is not a model output"
                              << policy::unknownNameHint(key, known, "outputs");
    }
    wanted[it - outputs.begin()] = element;
  }
  OpBuilder builder(ret);
  for (auto [i, element] : llvm::enumerate(wanted)) {
    Value value = ret.getOperand(i);
    if (!element || getElementTypeOrSelf(value) == element)
      continue;
    std::string name = (outputs[i].empty() ? "output" + std::to_string(i) : outputs[i]) +
                       "/output_type";
    ret.setOperand(i, castTo(builder, ret.getLoc(), value, element, name, "--output_type"));
  }
  return success();
}

} // namespace

LogicalResult applyModelIo(ModuleOp module, const policy::ModelInputOptions &options) {
  if (options.fp16Inputs.empty() && options.outputTypes.empty())
    return success();
  auto funcs = module.getOps<func::FuncOp>();
  if (std::distance(funcs.begin(), funcs.end()) != 1)
    return module.emitError() << "--input_fp16_nodes and --output_type need a model with "
                                 "one function";
  func::FuncOp func = *funcs.begin();
  if (failed(applyFp16Inputs(func, options)) || failed(applyOutputTypes(func, options)))
    return failure();
  auto ret = cast<func::ReturnOp>(func.front().getTerminator());
  func.setType(FunctionType::get(func.getContext(), func.front().getArgumentTypes(),
                                 ret.getOperandTypes()));
  return success();
}

} // namespace ascendprec::session
