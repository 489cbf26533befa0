//===- ConcatSplit.cpp - ConcatExt2FusionPass: a Concat of many inputs ----===//
//
// CANN's ConcatV2 kernel takes at most 63 inputs; its graph fusion splits a
// wider one into a tree (tbe fusion_pass concat_pass_util.cpp,
// SplitConcatNode): children of 63 inputs each (the last one takes the
// rest), named `<name>/ConcatV2<index><rank>`, joined by a base Concat
// under the original name; a base still wider than 63 is split again. With
// unknown shapes the limit is 48 (21 on the Ascend310), which a plan of
// static shapes never meets (ST-2). Only data moves: the result is the
// same, with more launches.
//
//===----------------------------------------------------------------------===//

#include "FusionPatterns.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

namespace {

/// A ConcatV2 of `inputs` along `axis` named `name`, with `original`'s
/// other attributes, before `original`.
ConcatV2Op concatOf(OpBuilder &b, ConcatV2Op original, ValueRange inputs, StringRef name) {
  auto type = cast<RankedTensorType>(original.getType());
  int64_t axis = original.getConcatDim();
  if (axis < 0)
    axis += type.getRank();
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] = 0;
  for (Value input : inputs)
    shape[axis] += cast<RankedTensorType>(input.getType()).getDimSize(axis);
  OperationState state(original.getLoc(), ConcatV2Op::getOperationName());
  state.addOperands(inputs);
  state.addTypes(RankedTensorType::get(shape, type.getElementType()));
  for (NamedAttribute attr : original->getAttrs())
    state.addAttribute(attr.getName(), attr.getValue());
  state.addAttribute("name", b.getStringAttr(name));
  state.addAttribute("fused_by", b.getStrArrayAttr({kConcatSplitPass}));
  return cast<ConcatV2Op>(b.create(state));
}

} // namespace

bool ascendprec::ascend::splitWideConcat(ConcatV2Op concat, NodeNames &names) {
  auto type = dyn_cast<RankedTensorType>(concat.getType());
  if (!type || !type.hasStaticShape() ||
      static_cast<int64_t>(concat.getX().size()) <= kConcatMaxInputs)
    return false;
  OpBuilder b(concat);
  std::string name = concat.getName().str();
  SmallVector<Value> inputs(concat.getX());
  for (int64_t rank = 0; static_cast<int64_t>(inputs.size()) > kConcatMaxInputs; ++rank) {
    SmallVector<Value> children;
    for (size_t start = 0, index = 0; start < inputs.size(); start += kConcatMaxInputs, ++index) {
      size_t count = std::min<size_t>(kConcatMaxInputs, inputs.size() - start);
      std::string child = names.claim(name + "/ConcatV2" + std::to_string(index) +
                                      std::to_string(rank));
      children.push_back(
          concatOf(b, concat, ArrayRef<Value>(inputs).slice(start, count), child).getResult());
    }
    inputs = std::move(children);
  }
  ConcatV2Op base = concatOf(b, concat, inputs, name);
  concat.getResult().replaceAllUsesWith(base.getResult());
  concat->erase();
  return true;
}
