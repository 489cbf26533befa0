//===- ValueNames.cpp - the names users know values by --------------------===//

#include "AscendPrec/Dialect/Ascend/ValueNames.h"

#include "AscendPrec/Dialect/Ascend/AscendOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

std::string mlir::ascend::valueName(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto function = dyn_cast_or_null<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (function && arg.getOwner()->isEntryBlock())
      if (auto name = function.getArgAttrOfType<StringAttr>(arg.getArgNumber(), kArgNameAttr))
        return name.str();
    return "arg" + std::to_string(arg.getArgNumber());
  }
  auto op = dyn_cast_or_null<AscendOpInterface>(value.getDefiningOp());
  if (!op)
    return "?";
  std::string name = op.getNodeName().str();
  if (op->getNumResults() > 1)
    name += ":" + std::to_string(cast<OpResult>(value).getResultNumber());
  return name;
}
