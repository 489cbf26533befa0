//===- ValueNames.cpp - the names users know values by --------------------===//

#include "AscendPrec/Dialect/Ascend/IR/ValueNames.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace ascendprec;

std::string ascendprec::ascend::valueName(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto function = dyn_cast_or_null<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (function && arg.getOwner()->isEntryBlock())
      if (auto name = function.getArgAttrOfType<StringAttr>(arg.getArgNumber(), kArgNameAttr))
        return name.str();
    // A Loop or Scan body's arguments: the ONNX body's input names.
    if (Operation *owner = arg.getOwner()->getParentOp())
      if (auto names = owner->getAttrOfType<ArrayAttr>("arg_names"))
        if (arg.getArgNumber() < names.size())
          if (auto name = dyn_cast<StringAttr>(names[arg.getArgNumber()]))
            return name.str();
    return "arg" + std::to_string(arg.getArgNumber());
  }
  Operation *op = value.getDefiningOp();
  // Ascend ops and the control-flow ops (If, Loop, Scan) carry the node name.
  auto nodeName = op ? op->getAttrOfType<StringAttr>("name") : StringAttr();
  if (!nodeName)
    return "?";
  std::string name = nodeName.str();
  if (op->getNumResults() > 1)
    name += ":" + std::to_string(cast<OpResult>(value).getResultNumber());
  return name;
}
