//===- BufferFusion.cpp - prec-buffer-fusion (UB fusion, FU-1) ------------===//
//
// After planning: a cube op and the elementwise ops after it become one
// kernel, and the intermediate stays in the accumulator's dtype until the
// group's output (docs/reference/fusion/TbeCommonRules0FusionPass.md).
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h"
#include "AscendPrec/Dialect/Ascend/Transforms/PlanWithPolicy.h"
#include "FusionPatterns.h"
#include "PlanningState.h"
#include "PolicyBridge.h"

#include "llvm/ADT/StringSet.h"

#include <set>

namespace ascendprec::ascend {
#define GEN_PASS_DEF_BUFFERFUSION
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h.inc"
} // namespace ascendprec::ascend

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

namespace {

/// TbeMatmulElemwiseFusionPass: at most this many of the ops isChainOp
/// names follow the matmul in one group.
constexpr size_t kMaxMatmulChain = 4;

bool isChainOp(Operation *op) {
  return isa<ReluOp, LeakyReluOp, AddOp, SubOp, MulOp, ClipByValueOp>(op);
}

/// TbeCommonRules0FusionPass, as CANN's fusion engine defines it
/// (tbe_common_rules0_fusion_pass.cpp): a convolution and up to 5
/// elementwise ops; up to 3 of any kind, 4 or 5 only when every one is in
/// its white list (otherwise nothing fuses).
constexpr size_t kMaxConvChain = 5, kFreeConvChain = 3;

bool inConvWhiteList(StringRef opType) {
  static const llvm::StringSet<> kWhiteList = {
      "Eltwise", "LeakyRelu", "Vadd", "Relu", "Relu6", "Relu6D", "PRelu", "Add",
      "Mul", "Softplus", "Sigmoid", "Mish", "Minimum", "Tanh", "Swish"};
  return kWhiteList.contains(opType);
}

/// An elementwise op (CANN's ELEMWISE pattern) with at most two inputs,
/// as the pass takes them: the unary and binary float families and PRelu;
/// not LRN (a window across channels), the bool ops, nor ClipByValue (its
/// bounds are two more inputs: CANN's pass stops at an op of three).
bool isElementwise(Operation *op) {
  if (op->getNumResults() != 1 || !isa<FloatType>(getElementTypeOrSelf(op->getResult(0))))
    return false;
  if (isa<LRNOp>(op))
    return false;
  if (isa<PReluOp>(op))
    return true;
  if (op->hasTrait<OpTrait::SameOperandsAndResultType>())
    return op->getNumOperands() == 1;
  return op->hasTrait<OpTrait::ResultsBroadcastableShape>() && op->getNumOperands() == 2;
}

/// Whether `op`, reading the chain's `value`, keeps the chain's shape and
/// reads every other input whole or as a scalar. CANN stops a chain at an
/// op that broadcasts the chain's value to a larger shape; the group's
/// kernel here also loads side inputs tile by tile in the output's layout,
/// so one that broadcasts along some axes (a per-channel scale) stops it
/// too (docs/decisions.md).
bool keepsChainShape(Operation *op, Value value) {
  auto shape = cast<ShapedType>(value.getType()).getShape();
  if (cast<ShapedType>(op->getResult(0).getType()).getShape() != shape)
    return false;
  for (Value operand : op->getOperands()) {
    if (operand == value)
      continue;
    auto type = cast<ShapedType>(operand.getType());
    if (type.getShape() != shape && type.getNumElements() != 1)
      return false;
  }
  return true;
}

/// A decision the user made (customize_dtypes, keep_dtype): not ours to change.
bool isPinned(PrecisionAttr decision) {
  StringRef rule = decision.getRule();
  return rule.starts_with("CD-") || rule.starts_with("KD-");
}

bool isReduced(Type type) { return type.isF16() || type.isBF16(); }

class BufferFusionDriver {
public:
  BufferFusionDriver(ModuleOp module, const policy::Policy &policy, bool explain,
                     ArrayRef<std::string> explainOnly)
      : module(module), policy(policy), explain(explain),
        explainOnly(explainOnly.begin(), explainOnly.end()) {}

  void run() {
    SmallVector<AscendOpInterface> cubes;
    module.walk([&](AscendOpInterface op) {
      if (isa<Conv2DOp, MatMulV2Op, BatchMatMulV2Op>(op.getOperation()))
        cubes.push_back(op);
    });
    for (AscendOpInterface cube : cubes)
      group(cube);
  }

private:
  /// The kernel row of `opType` whose inputs are `inputs` (a prefix is
  /// enough: optional inputs) and whose output is `output`, if any.
  std::optional<policy::KernelRow> rowWith(StringRef opType, ArrayRef<Type> leading,
                                           Type output) const {
    const policy::OpInfo *info = policy.library.find(opType.str());
    std::optional<policy::DType> out = toDType(output);
    if (!info || !info->aicore || !out)
      return std::nullopt;
    for (const policy::KernelRow &row : info->aicore->rows) {
      if (row.outputs.empty() || row.outputs.front() != *out || row.inputs.size() < leading.size())
        continue;
      bool fits = llvm::all_of(llvm::enumerate(leading), [&](auto entry) {
        std::optional<policy::DType> dtype = toDType(entry.value());
        return dtype && row.inputs[entry.index()] == *dtype;
      });
      if (fits)
        return row;
    }
    return std::nullopt;
  }

  /// The elementwise ops after `cube` that join its kernel, by the rules
  /// of the convolution's pass or the matmul's.
  SmallVector<AscendOpInterface> chainAfter(AscendOpInterface cube, bool convolution) const {
    SmallVector<AscendOpInterface> chain;
    Value value = cube->getResult(0);
    size_t limit = convolution ? kMaxConvChain : kMaxMatmulChain;
    while (chain.size() < limit) {
      Operation *user = soleUser(value);
      auto next = dyn_cast_or_null<AscendOpInterface>(user);
      PrecisionAttr decision = next ? next.getPrecisionDecision() : PrecisionAttr();
      bool takes = next && (convolution ? isElementwise(user) && keepsChainShape(user, value)
                                        : isChainOp(user));
      if (!takes || user->getBlock() != cube->getBlock() || !decision ||
          decision.getEngine() != Engine::AICoreVector || isPinned(decision))
        break;
      chain.push_back(next);
      value = user->getResult(0);
    }
    if (convolution && chain.size() > kFreeConvChain &&
        !llvm::all_of(chain, [](AscendOpInterface op) { return inConvWhiteList(op.getOpType()); }))
      chain.clear();
    return chain;
  }

  void group(AscendOpInterface cube) {
    PrecisionAttr decision = cube.getPrecisionDecision();
    if (!decision || decision.getEngine() != Engine::AICoreCube || isPinned(decision))
      return;
    bool convolution = isa<Conv2DOp>(cube.getOperation());
    StringRef pass = convolution ? "TbeCommonRules0FusionPass" : "TbeMatmulElemwiseFusionPass";
    if (!policy.fusion.isOn(pass))
      return;
    SmallVector<AscendOpInterface> chain = chainAfter(cube, convolution);
    if (chain.empty())
      return;
    MLIRContext *context = module.getContext();
    Builder b(context);
    StringAttr groupName = b.getStringAttr(cube.getNodeName());
    SmallVector<Operation *> members = {cube.getOperation()};
    for (AscendOpInterface op : chain)
      members.push_back(op.getOperation());
    for (Operation *op : members) {
      op->setAttr(kBufferGroupAttr, groupName);
      op->setAttr(kBufferPassAttr, b.getStringAttr(pass));
    }
    keepAccumulator(cube, chain, pass);
  }

  /// FU-1: the cube op writes its fp32 accumulator and the chain computes in
  /// fp32, when every op has a kernel row for it; the Cast back comes after.
  void keepAccumulator(AscendOpInterface cube, ArrayRef<AscendOpInterface> chain,
                       StringRef pass) {
    PrecisionAttr decision = cube.getPrecisionDecision();
    ArrayRef<Type> outputs = decision.getOutputs();
    if (outputs.size() != 1 || !isReduced(outputs.front()))
      return;
    Type f32 = Float32Type::get(module.getContext());
    ArrayRef<Type> inputs = decision.getInputs();
    std::optional<policy::KernelRow> cubeRow =
        rowWith(cube.getOpType(), inputs.take_front(2), f32);
    if (!cubeRow)
      return;
    SmallVector<AscendOpInterface> widened;
    for (AscendOpInterface op : chain) {
      SmallVector<Type> allF32(op->getNumOperands(), f32);
      if (!rowWith(op.getOpType(), allF32, f32))
        break;
      widened.push_back(op);
    }
    if (widened.empty())
      return;
    // The cube op still computes as its rule decided; only the output of
    // its kernel row changes, so its rule and source stay.
    SmallVector<Type> cubeInputs;
    for (size_t i = 0; i < inputs.size(); ++i)
      cubeInputs.push_back(i < cubeRow->inputs.size()
                               ? toMlirType(module.getContext(), cubeRow->inputs[i])
                               : inputs[i]);
    cube.setPrecisionDecision(PrecisionAttr::get(
        module.getContext(), decision.getOrigin(), decision.getCompute(), cubeInputs, {f32},
        decision.getEngine(), decision.getList(), decision.getRule(), decision.getSource()));
    explainOp(cube, pass, cube.getNodeName().str() + " writes its fp32 accumulator to " +
                              "the ops after it in the same kernel, not " +
                              typeName(outputs.front()));
    for (AscendOpInterface op : widened) {
      PrecisionAttr old = op.getPrecisionDecision();
      SmallVector<Type> opInputs(op->getNumOperands(), f32);
      op.setPrecisionDecision(PrecisionAttr::get(module.getContext(), old.getOrigin(), f32,
                                                 opInputs, {f32}, old.getEngine(),
                                                 old.getList(), "FU-1", pass));
      explainOp(op, pass, op.getNodeName().str() + " computes in f32, not " +
                              typeName(old.getCompute()) + ": it runs in " +
                              cube.getNodeName().str() +
                              "'s kernel and reads the fp32 accumulator unrounded");
    }
  }

  static std::string typeName(Type type) {
    std::string name;
    llvm::raw_string_ostream os(name);
    type.print(os);
    return name;
  }

  /// --explain: a remark on an op whose decision the group changed, when
  /// every op is explained or this one is named (by its name, an absorbed
  /// name or OpType::T).
  void explainOp(AscendOpInterface op, StringRef pass, const std::string &text) {
    if (!explain)
      return;
    if (!explainOnly.empty()) {
      SmallVector<std::string> keys = {"OpType::" + op.getOpType().str()};
      for (StringRef name : op.getOriginalNames())
        keys.push_back(name.str());
      if (llvm::none_of(keys, [&](const std::string &key) { return explainOnly.count(key); }))
        return;
    }
    op->emitRemark() << text << " [FU-1, " << pass << "]";
  }

  ModuleOp module;
  const policy::Policy &policy;
  bool explain;
  std::set<std::string> explainOnly;
};

struct BufferFusionPass : ascendprec::ascend::impl::BufferFusionBase<BufferFusionPass> {
  BufferFusionPass() = default;
  explicit BufferFusionPass(const BufferFusionOptions &options) : BufferFusionBase(options) {}
  // The CANN options are declared anew in the same order; Pass::clone then
  // copies every option's value by position.
  BufferFusionPass(const BufferFusionPass &other)
      : BufferFusionBase(other), prebuilt(other.prebuilt), explain(other.explain),
        explainOnly(other.explainOnly) {}

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<policy::Policy> built;
    const policy::Policy *resolved = resolvePassPolicy(
        prebuilt.get(), built, &getContext(), cann.values(), sessionOptions, module.getLoc());
    if (!resolved)
      return signalPassFailure();
    BufferFusionDriver(module, *resolved, explain, explainOnly).run();
  }

  std::shared_ptr<const policy::Policy> prebuilt;
  /// prec-compile's --explain (set by the factory; prec-opt has none).
  bool explain = false;
  std::vector<std::string> explainOnly;
  CannPassOptions cann{*this};
};

} // namespace

std::unique_ptr<Pass>
ascendprec::ascend::createBufferFusion(std::shared_ptr<const policy::Policy> policy,
                                       bool explain, ArrayRef<std::string> explainOnly) {
  auto pass = std::make_unique<BufferFusionPass>();
  pass->prebuilt = std::move(policy);
  pass->explain = explain;
  pass->explainOnly.assign(explainOnly.begin(), explainOnly.end());
  return pass;
}

std::unique_ptr<Pass> ascendprec::ascend::createBufferFusion(const BufferFusionOptions &options,
                                                             const CannOptionValues &cann) {
  return createWithCannOptions<BufferFusionPass>(options, cann);
}
