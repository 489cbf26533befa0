//===- EltwiseGroupLowering.cpp - an elementwise UB group as one kernel ---===//
//
// prec-buffer-fusion marks chains of elementwise vector ops with
// TbeEltwiseFusionPass (`ascend.ub_group`, `ascend.ub_pass`); the Casts
// planning inserted between or around them join the group. Here each group
// becomes one vector kernel: the inputs from outside the chain are loaded
// tile by tile (broadcast or as scalars, as a lone op's kernel loads them),
// every member computes on UB tiles as it would alone (its own compute
// dtype, impl mode and rounding: FU-4), and only the last member's tile is
// stored to GM.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "LoweringTables.h"
#include "RowKernels.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Dialect/Ascend/Transforms/NodeLocation.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

constexpr StringLiteral kGroupAttr = "ascend.ub_group";
constexpr StringLiteral kPassAttr = "ascend.ub_pass";
constexpr StringLiteral kEltwisePass = "TbeEltwiseFusionPass";

/// One group in block order, the values it reads from outside, and the
/// member whose result leaves it.
struct EltwiseGroup {
  SmallVector<Operation *> members;
  SmallVector<Value> inputs;
  Operation *exit = nullptr;
};

bool isFloatCast(Operation *op) {
  auto cast = dyn_cast<ascend::CastOp>(op);
  return cast && isa<FloatType>(getElementTypeOrSelf(cast.getX().getType())) &&
         isa<FloatType>(getElementTypeOrSelf(cast.getType()));
}

/// Why the group cannot be one kernel, if it cannot: a member the vector
/// table has no kind for, an intermediate value read outside the group, a
/// member of another shape, or an input that does not broadcast to it.
std::optional<std::string> checkGroup(EltwiseGroup &group) {
  llvm::SmallPtrSet<Operation *, 8> inGroup(group.members.begin(), group.members.end());
  group.exit = group.members.back();
  auto shape = cast<ShapedType>(group.exit->getResult(0).getType()).getShape();
  for (Operation *op : group.members) {
    if (op->getNumResults() != 1)
      return std::string("member ") + op->getName().getStringRef().str() + " has " +
             std::to_string(op->getNumResults()) + " results";
    if (!isFloatCast(op) && (!elementwiseKindOf(op) || isa<ascend::BiasAddOp>(op)))
      return std::string("member ") + op->getName().getStringRef().str() +
             " is not an elementwise op of the vector table";
    if (cast<ShapedType>(op->getResult(0).getType()).getShape() != shape)
      return std::string("member ") + op->getName().getStringRef().str() +
             " changes the chain's shape";
    if (op != group.exit)
      for (Operation *user : op->getUsers())
        if (!inGroup.contains(user))
          return std::string("an intermediate result is used outside the group");
    for (Value operand : op->getOperands()) {
      if (inGroup.contains(operand.getDefiningOp()))
        continue;
      auto type = cast<ShapedType>(operand.getType());
      if (type.getRank() > static_cast<int64_t>(shape.size()))
        return std::string("an input has more dimensions than the chain");
      // Aligned at the right, every dimension the chain's or 1.
      int64_t lead = static_cast<int64_t>(shape.size()) - type.getRank();
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.getDimSize(d) != 1 && type.getDimSize(d) != shape[lead + d])
          return std::string("an input does not broadcast to the chain's shape");
      if (!llvm::is_contained(group.inputs, operand))
        group.inputs.push_back(operand);
    }
  }
  return std::nullopt;
}

/// UB bytes per element for the members' result tiles but the last (which
/// is the kernel's output tile), with an fp32 working copy where a member
/// computes wider than its data.
int64_t chainScratchBytes(const EltwiseGroup &group) {
  int64_t bytes = 0;
  for (Operation *op : group.members) {
    Type out = getElementTypeOrSelf(op->getResult(0).getType());
    if (op != group.exit)
      bytes += elementBytes(out);
    if (auto kind = elementwiseKindOf(op)) {
      Type compute = vectorCompute(op, kind->kind, out).first;
      if (elementBytes(compute) > elementBytes(out))
        bytes += 2 * elementBytes(compute);
    }
  }
  return bytes;
}

/// The member's computation from its inputs' tiles into `out`, as its own
/// kernel computes it (FU-4).
void emitMember(OpBuilder &b, Location loc, Operation *op, ArrayRef<Value> inputs, Value out) {
  if (isa<ascend::CastOp>(op))
    return emitCast(b, loc, op, inputs[0], out);
  Type data = op->getNumOperands() ? getElementTypeOrSelf(op->getOperands().back().getType())
                                   : getElementTypeOrSelf(op->getResult(0).getType());
  emitElementwise(b, loc, op, *elementwiseKindOf(op), inputs, out, data);
}

void lowerGroup(IRRewriter &rewriter, LoweringContext &context, EltwiseGroup &group) {
  // Named after the chain's first elementwise op (the group's name), not a
  // Cast planning put before it.
  Operation *head = group.members.front();
  for (Operation *op : group.members)
    if (auto named = dyn_cast<ascend::AscendOpInterface>(op))
      if (named.getNodeName() == op->getAttrOfType<StringAttr>(kGroupAttr).getValue())
        head = op;
  std::vector<std::string> nodes;
  for (Operation *op : group.members)
    for (const std::string &node : nodesOf(op))
      nodes.push_back(node);
  KernelBuilder kb(rewriter, context, head, Engine::Vector, ValueRange(group.inputs).getTypes(),
                   group.exit->getResultTypes(), nodes);
  kb.kernel()->setAttr("ub_group", head->getAttr(kGroupAttr));
  SmallVector<Value> args;
  for (unsigned i = 0; i < group.inputs.size(); ++i)
    args.push_back(kb.arg(i));
  auto outType = cast<ShapedType>(group.exit->getResult(0).getType());
  Type exitElement = outType.getElementType();
  buildElementwiseBody(
      kb, context, args, outType, exitElement, std::nullopt,
      [&](OpBuilder &b, ValueRange inputTiles, Value outTile) {
        DenseMap<Value, Value> tiles; // graph value -> its UB tile
        for (auto [value, tile] : llvm::zip_equal(group.inputs, inputTiles))
          tiles[value] = tile;
        int64_t tile = cast<ShapedType>(outTile.getType()).getDimSize(0);
        for (Operation *op : group.members) {
          SmallVector<Value> inputs;
          for (Value operand : op->getOperands())
            inputs.push_back(tiles.lookup(operand));
          Value out = op == group.exit
                          ? outTile
                          : kb.alloc({tile}, getElementTypeOrSelf(op->getResult(0).getType()),
                                     MemorySpace::UB);
          emitMember(b, kb.loc(), op, inputs, out);
          tiles[op->getResult(0)] = out;
        }
      },
      chainScratchBytes(group));
  rewriter.setInsertionPoint(group.exit);
  LaunchOp launch = kb.createLaunch(rewriter, group.exit->getLoc(), group.inputs,
                                    group.exit->getResultTypes());
  rewriter.replaceOp(group.exit, launch.getResults());
  for (Operation *op : llvm::reverse(group.members))
    if (op != group.exit)
      rewriter.eraseOp(op);
}

} // namespace

bool ascendprec::kernel::isEltwiseGroupMember(Operation *op) {
  auto pass = op->getAttrOfType<StringAttr>(kPassAttr);
  return pass && pass.getValue() == kEltwisePass && op->hasAttr(kGroupAttr);
}

void ascendprec::kernel::lowerEltwiseGroups(ModuleOp module, LoweringContext &context,
                                            bool explain) {
  IRRewriter rewriter(module.getContext());
  SmallVector<EltwiseGroup> groups;
  module.walk([&](Block *block) {
    llvm::MapVector<StringAttr, EltwiseGroup> inBlock;
    for (Operation &op : *block)
      if (isEltwiseGroupMember(&op))
        inBlock[op.getAttrOfType<StringAttr>(kGroupAttr)].members.push_back(&op);
    for (auto &entry : inBlock)
      groups.push_back(std::move(entry.second));
  });
  for (EltwiseGroup &group : groups) {
    if (std::optional<std::string> why = checkGroup(group)) {
      if (explain)
        emitRemark(ascend::nodeLocation(group.members.front()))
            << "UB group '" << group.members.front()->getAttrOfType<StringAttr>(kGroupAttr).getValue()
            << "' is not one kernel: " << *why;
      continue;
    }
    lowerGroup(rewriter, context, group);
  }
}
