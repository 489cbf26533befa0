//===- BufferGroupLowering.cpp - a UB-fusion group as one kernel ----------===//
//
// prec-buffer-fusion marks a cube op and the elementwise chain after it
// (`ascend.ub_group`). Here the group becomes one mixed kernel: the fixpipe
// converts the accumulator into UB in the cube op's output dtype (FU-4;
// a Conv2D's bias is added after it on a SoC with no FixPipe), each chain
// op computes on the UB tile as it would alone, and only the result goes
// to GM.
// Side inputs of the chain (a residual) are loaded tile by tile; a Cast
// the group marked as its own on a side input becomes a vcast on UB.
//
//===----------------------------------------------------------------------===//

#include "CubeKernel.h"
#include "LoweringTables.h"
#include "RowKernels.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Dialect/Ascend/Transforms/NodeLocation.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

constexpr StringLiteral kGroupAttr = "ascend.ub_group";

/// One group: the cube op, then the rest in block order.
struct BufferGroup {
  Operation *cube = nullptr;
  SmallVector<Operation *> rest;
  /// Values from outside the chain the members read, and whether a member
  /// Cast converts each on the way in.
  SmallVector<Value> sideInputs;
  Operation *exit = nullptr; ///< the op whose result leaves the group

  SmallVector<Operation *> members() const {
    SmallVector<Operation *> all = {cube};
    llvm::append_range(all, rest);
    return all;
  }
};

bool isMember(Operation *op, StringAttr group) {
  return op && op->getAttrOfType<StringAttr>(kGroupAttr) == group;
}

/// Why the group cannot be one kernel here, if it cannot.
std::optional<std::string> checkGroup(BufferGroup &group, StringAttr name,
                                      const LoweringContext &context) {
  if (!group.cube || !isa<ascend::Conv2DOp, ascend::MatMulV2Op, ascend::BatchMatMulV2Op>(group.cube))
    return std::string("its cube op is not in the block");
  if (std::optional<std::string> why = whyNotLowerable(group.cube, context))
    return why;
  auto outType = cast<ShapedType>(group.cube->getResult(0).getType());
  Operation *last = group.cube;
  for (Operation *op : group.rest) {
    bool sideCast = isa<ascend::CastOp>(op) && !isMember(op->getOperand(0).getDefiningOp(), name);
    if (sideCast)
      continue;
    if (!isa<ascend::CastOp>(op) && !elementwiseKindOf(op))
      return std::string("member ") + op->getName().getStringRef().str() +
             " is not elementwise";
    last = op;
  }
  group.exit = last;
  // Every member's result stays in the group, except the exit's.
  for (Operation *op : group.members()) {
    if (op == group.exit)
      continue;
    for (Operation *user : op->getUsers())
      if (!isMember(user, name))
        return std::string("an intermediate result is used outside the group");
  }
  auto exitType = cast<ShapedType>(group.exit->getResult(0).getType());
  if (exitType.getShape() != outType.getShape())
    return std::string("the chain changes the shape");
  for (Operation *op : group.rest)
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (isMember(def, name) && !(isa<ascend::CastOp>(def) && !isMember(def->getOperand(0).getDefiningOp(), name)))
        continue;
      if (isa<ascend::CastOp>(op) && !isMember(def, name))
        continue; // a side Cast's own input, loaded where the Cast's result is used
      Value side = isMember(def, name) ? def->getOperand(0) : operand;
      auto sideType = cast<ShapedType>(side.getType());
      if (sideType.getShape() != outType.getShape() && sideType.getNumElements() != 1)
        return std::string("a side input is neither the output's shape nor a scalar");
      if (!llvm::is_contained(group.sideInputs, side))
        group.sideInputs.push_back(side);
    }
  return std::nullopt;
}

/// UB bytes per output element of the group's epilogue: the fixpipe's tile,
/// each member's result tile and each side input's tile.
int64_t epilogueBytes(const BufferGroup &group) {
  int64_t bytes = elementBytes(group.cube->getResult(0).getType());
  for (Operation *op : group.rest)
    bytes += elementBytes(op->getResult(0).getType());
  for (Value side : group.sideInputs)
    if (cast<ShapedType>(side.getType()).getNumElements() > 1)
      bytes += elementBytes(side.getType());
  return bytes;
}

/// Builds the group's kernel and replaces its exit with the launch.
void lowerGroup(IRRewriter &rewriter, LoweringContext &context, BufferGroup &group,
                StringAttr name) {
  Operation *cube = group.cube;
  SmallVector<Value> operands(cube->getOperands());
  llvm::append_range(operands, group.sideInputs);
  std::vector<std::string> nodes;
  for (Operation *op : group.members())
    for (const std::string &node : nodesOf(op))
      nodes.push_back(node);
  KernelBuilder kb(rewriter, context, cube, Engine::Mix, ValueRange(operands).getTypes(),
                   group.exit->getResultTypes(), nodes);
  kb.kernel()->setAttr("ub_group", name);
  PreparedCube prepared = prepareCube(kb, cube, context, epilogueBytes(group));
  // The group writes its exit value instead of the cube op's result: same
  // shape, maybe another dtype; same offsets.
  auto outShape = cast<ShapedType>(prepared.output.getType()).getShape();
  Value exitGM = kb.reshapeGM(kb.output(), outShape);
  int64_t mTile = prepared.spec.tiling.mTile, nTile = prepared.spec.tiling.nTile;
  unsigned firstSide = cube->getNumOperands();
  prepared.spec.epilogue = [&](OpBuilder &b, const TilePosition &pos, Value acc) {
    Location loc = kb.loc();
    DenseMap<Value, Value> tiles; // graph value -> its UB tile
    Type cubeOut = getElementTypeOrSelf(cube->getResult(0).getType());
    Value cubeTile = kb.alloc({mTile, nTile}, cubeOut, MemorySpace::UB);
    FixpipeOp::create(b, loc, acc, cubeTile, ValueRange{}, fixpipeBias(kb, b, prepared, pos),
                      RoundingMode::Rint, /*relu=*/false, /*transpose=*/false);
    addBiasAfterConversion(kb, b, prepared, pos, cubeTile);
    tiles[cube->getResult(0)] = cubeTile;
    SmallVector<Value> offsets = prepared.outputOffsets(pos);
    auto tileOf = [&](Value value) -> Value {
      if (Value tile = tiles.lookup(value))
        return tile;
      auto type = cast<ShapedType>(value.getType());
      auto found = llvm::find(group.sideInputs, value);
      Value gm = kb.arg(firstSide + (found - group.sideInputs.begin()));
      Value tile;
      if (type.getNumElements() == 1) {
        tile = kb.alloc({1}, type.getElementType(), MemorySpace::UB);
        loadTile(b, loc, kb.reshapeGM(gm, {1}), ValueRange{kb.index(0)}, tile);
      } else {
        tile = kb.alloc({mTile, nTile}, type.getElementType(), MemorySpace::UB);
        auto load = loadTile(b, loc, kb.reshapeGM(gm, outShape), offsets, tile);
        load.setTranspose(prepared.transposeOutput);
      }
      tiles[value] = tile;
      return tile;
    };
    for (Operation *op : group.rest) {
      auto type = cast<ShapedType>(op->getResult(0).getType());
      SmallVector<Value> inputs;
      for (Value operand : op->getOperands())
        inputs.push_back(tileOf(operand));
      Value out = kb.alloc({type.getNumElements() == 1 ? 1 : mTile, nTile}, type.getElementType(),
                           MemorySpace::UB);
      if (isa<ascend::CastOp>(op)) {
        if (cast<ShapedType>(inputs[0].getType()).getNumElements() == 1)
          out = kb.alloc({1}, type.getElementType(), MemorySpace::UB);
        kernel::CastOp::create(b, loc, inputs[0], out, RoundingMode::Rint);
      } else {
        // FU-4: as the op computes alone (its impl mode included).
        emitElementwise(b, loc, op, *elementwiseKindOf(op), inputs, out, type.getElementType());
      }
      tiles[op->getResult(0)] = out;
    }
    auto store = storeTile(b, loc, tiles[group.exit->getResult(0)], exitGM, offsets);
    store.setTranspose(prepared.transposeOutput);
  };
  buildCubeKernel(kb, prepared.spec);
  rewriter.setInsertionPoint(group.exit);
  LaunchOp launch = kb.createLaunch(rewriter, group.exit->getLoc(), operands,
                                    group.exit->getResultTypes());
  rewriter.replaceOp(group.exit, launch.getResults());
  for (Operation *op : llvm::reverse(group.rest))
    if (op != group.exit)
      rewriter.eraseOp(op);
  if (cube != group.exit)
    rewriter.eraseOp(cube);
}

} // namespace

void ascendprec::kernel::lowerBufferGroups(ModuleOp module, LoweringContext &context,
                                           bool explain) {
  IRRewriter rewriter(module.getContext());
  SmallVector<std::pair<StringAttr, BufferGroup>> groups;
  module.walk([&](Block *block) {
    llvm::MapVector<StringAttr, BufferGroup> inBlock;
    for (Operation &op : *block) {
      auto name = op.getAttrOfType<StringAttr>(kGroupAttr);
      if (!name || isEltwiseGroupMember(&op))
        continue; // (EltwiseGroupLowering.cpp lowers those)
      BufferGroup &group = inBlock[name];
      auto ascendOp = dyn_cast<ascend::AscendOpInterface>(&op);
      if (ascendOp && ascendOp.getNodeName() == name.getValue() && !isa<ascend::CastOp>(&op))
        group.cube = &op;
      else
        group.rest.push_back(&op);
    }
    for (auto &entry : inBlock)
      groups.push_back(entry);
  });
  for (auto &[name, group] : groups) {
    if (std::optional<std::string> why = checkGroup(group, name, context)) {
      Operation *anchor = group.cube ? group.cube : group.rest.front();
      if (explain)
        emitRemark(ascend::nodeLocation(anchor)) << "UB group '" << name.getValue()
                                     << "' is not one kernel: its cube op or chain " << *why;
      continue;
    }
    lowerGroup(rewriter, context, group, name);
  }
}
