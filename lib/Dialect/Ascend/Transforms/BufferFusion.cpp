//===- BufferFusion.cpp - prec-buffer-fusion (UB fusion, FU-1) ------------===//
//
// After planning: a cube op and the elementwise ops after it become one
// kernel (docs/reference/fusion/TbeCommonRules0FusionPass.md). FU-4: the
// cube's fp32 accumulator is converted to the cube op's planned output
// dtype on its way out of L0C, and each chain op then computes as it would
// alone; fusion saves launches and GM round trips, not roundings
// (docs/numerics.md, "UB-fused chains").
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/IR/OpTypes.h"
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h"
#include "AscendPrec/Dialect/Ascend/Transforms/NodeLocation.h"
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
/// not LRN or SoftmaxV2 (they reduce across elements), the bool ops, nor
/// ClipByValue (its bounds are two more inputs: CANN's pass stops at an op
/// of three).
bool isElementwise(Operation *op) {
  if (op->getNumResults() != 1 || !isa<FloatType>(getElementTypeOrSelf(op->getResult(0))))
    return false;
  // The op types whose kernels are elementwise (the vector lowering's
  // table): a same-typed unary op such as SoftmaxV2 or LRN reduces across
  // elements and is not one.
  auto ascendOp = dyn_cast<AscendOpInterface>(op);
  if (!ascendOp || !elementwiseKindOfOpType(ascendOp.getOpType()))
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

bool isReduced(Type type) { return type.isF16() || type.isBF16(); }

/// The pass for the hard-swish that opset-9 exporters (Paddle2ONNX, older
/// torch) write after a convolution: x * Clip(x + a, lo, hi) / d.
constexpr llvm::StringLiteral kAddClipMulDivPass = "TbeConv2dAddClipMulDivFusionPass";

/// TbeEltwiseFusionPass (CANN's fusion engine, tbe_eltwise_fusion_pass):
/// consecutive elementwise ops, at most this many, become one kernel.
constexpr llvm::StringLiteral kEltwisePass = "TbeEltwiseFusionPass";
constexpr size_t kMaxEltwiseChain = 6;

/// An op CANN's ELEMWISE pattern covers that the vector kernel of a chain
/// can compute: a float elementwise op as isElementwise takes them, or a
/// ClipByValue (its bounds are inputs like any other).
bool isChainableElementwise(Operation *op) {
  if (isa<ClipByValueOp>(op))
    return op->getNumResults() == 1 && isa<FloatType>(getElementTypeOrSelf(op->getResult(0)));
  return isElementwise(op) && !isa<BiasAddOp>(op);
}

/// Whether `op` keeps `value`'s shape, reading `value` itself unbroadcast:
/// other inputs may broadcast to it (the chain's kernel loads them as a
/// lone op's kernel does).
bool keepsShapeOf(Operation *op, Value value) {
  auto shape = cast<ShapedType>(value.getType()).getShape();
  return cast<ShapedType>(op->getResult(0).getType()).getShape() == shape;
}

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
    // CANN's elementwise pass runs after the cube ops' passes and takes
    // what they left.
    if (!policy.fusion.isOn(kEltwisePass))
      return;
    SmallVector<AscendOpInterface> heads;
    module.walk([&](AscendOpInterface op) { heads.push_back(op); });
    for (AscendOpInterface head : heads)
      groupEltwiseChain(head);
  }

private:
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
          decision.getEngine() != Engine::AICoreVector)
        break;
      chain.push_back(next);
      value = user->getResult(0);
    }
    if (convolution && chain.size() > kFreeConvChain &&
        !llvm::all_of(chain, [](AscendOpInterface op) { return inConvWhiteList(op.getOpType()); }))
      chain.clear();
    return chain;
  }

  /// TbeConv2dAddClipMulDivFusionPass (CANN's built-in UB pass of that
  /// name): a Conv2D read by exactly an Add and a Mul, where the Add's only
  /// user is a Clip of it, the Clip's only user that Mul (conv * clip), and
  /// the Mul's only user a RealDiv of it (or a Mul: GE turns a scalar
  /// divisor into a multiply). Side inputs are whole tensors or scalars.
  SmallVector<AscendOpInterface> addClipMulDivAfter(AscendOpInterface conv) const {
    Value x = conv->getResult(0);
    SmallVector<Operation *, 2> users(x.getUsers());
    if (users.size() != 2)
      return {};
    if (isa<MulOp>(users[0]))
      std::swap(users[0], users[1]);
    Operation *add = users[0], *mul = users[1];
    if (!isa<AddOp>(add) || !isa<MulOp>(mul))
      return {};
    auto clip = dyn_cast_or_null<ClipByValueOp>(soleUser(add->getResult(0)));
    if (!clip || clip->getOperand(0) != add->getResult(0) || soleUser(clip.getResult()) != mul)
      return {};
    Operation *div = soleUser(mul->getResult(0));
    if (!isa_and_nonnull<RealDivOp, MulOp>(div) ||
        (isa<RealDivOp>(div) && div->getOperand(0) != mul->getResult(0)))
      return {};
    SmallVector<std::pair<Operation *, Value>> steps = {
        {add, x}, {clip, add->getResult(0)}, {mul, clip.getResult()}, {div, mul->getResult(0)}};
    SmallVector<AscendOpInterface> chain;
    for (auto [op, in] : steps) {
      auto member = dyn_cast<AscendOpInterface>(op);
      PrecisionAttr decision = member ? member.getPrecisionDecision() : PrecisionAttr();
      if (!decision || decision.getEngine() != Engine::AICoreVector ||
          op->getBlock() != conv->getBlock() || !keepsChainShape(op, in))
        return {};
      chain.push_back(member);
    }
    return chain;
  }

  void group(AscendOpInterface cube) {
    PrecisionAttr decision = cube.getPrecisionDecision();
    // A pinned op (customize_dtypes, keep_dtype) joins like any other:
    // fusion changes no decision (FU-4), so a lockfile replays the groups.
    if (!decision || decision.getEngine() != Engine::AICoreCube)
      return;
    bool convolution = isa<Conv2DOp>(cube.getOperation());
    StringRef pass = convolution ? "TbeCommonRules0FusionPass" : "TbeMatmulElemwiseFusionPass";
    SmallVector<AscendOpInterface> chain;
    if (convolution && policy.fusion.isOn(kAddClipMulDivPass))
      chain = addClipMulDivAfter(cube);
    if (!chain.empty())
      pass = kAddClipMulDivPass;
    else if (policy.fusion.isOn(pass))
      chain = chainAfter(cube, convolution);
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
    describeSteps(cube, chain, pass);
  }

  /// Whether `op` can join an elementwise chain: on the vector unit, not
  /// in a group yet.
  static bool chainable(Operation *op) {
    auto ascendOp = dyn_cast_or_null<AscendOpInterface>(op);
    PrecisionAttr decision = ascendOp ? ascendOp.getPrecisionDecision() : PrecisionAttr();
    return decision && decision.getEngine() == Engine::AICoreVector &&
           !op->hasAttr(kBufferGroupAttr) && isChainableElementwise(op);
  }

  /// TbeEltwiseFusionPass: `head` and the elementwise ops after it, each
  /// the previous one's only user, in one block, keeping the head's shape,
  /// up to kMaxEltwiseChain: one vector kernel when there are two or more.
  void groupEltwiseChain(AscendOpInterface head) {
    if (!chainable(head.getOperation()))
      return;
    SmallVector<AscendOpInterface> chain = {head};
    Value value = head->getResult(0);
    while (chain.size() < kMaxEltwiseChain) {
      Operation *user = soleUser(value);
      if (!chainable(user) || user->getBlock() != head->getBlock() || !keepsShapeOf(user, value))
        break;
      chain.push_back(cast<AscendOpInterface>(user));
      value = user->getResult(0);
    }
    if (chain.size() < 2)
      return;
    Builder b(module.getContext());
    StringAttr groupName = b.getStringAttr(head.getNodeName());
    for (AscendOpInterface op : chain) {
      op->setAttr(kBufferGroupAttr, groupName);
      op->setAttr(kBufferPassAttr, b.getStringAttr(kEltwisePass));
      op->setAttr(kBufferStepAttr,
                  b.getStringAttr(computesAlone(op, "UB vector", /*forReport=*/true)));
      explainOp(op, kEltwisePass,
                op.getNodeName().str() + " runs in " + head.getNodeName().str() +
                    "'s kernel: " + computesAlone(op, "UB vector", /*forReport=*/false) +
                    "; only the chain's last value goes to GM");
    }
  }

  /// FU-4: where each member of the group computes and rounds. Nothing in
  /// the decisions changes: the cube op's output dtype is what L0C is
  /// converted to, and every chain op keeps its own kernel row, compute
  /// dtype and impl mode.
  void describeSteps(AscendOpInterface cube, ArrayRef<AscendOpInterface> chain,
                     StringRef pass) {
    Builder b(module.getContext());
    PrecisionAttr decision = cube.getPrecisionDecision();
    if (decision.getOutputs().empty())
      return;
    Type out = decision.getOutputs().front();
    bool fixpipe = policy.soc.fixpipe;
    bool biasInUB = isa<Conv2DOp>(cube.getOperation()) &&
                    policy.soc.addsConvBiasAfterConversion(cube->getNumOperands() > 2,
                                                           isReduced(out));
    // The report speaks CANN's dtype names, the remarks MLIR's.
    auto cubeStep = [&](const std::string &dtype) {
      return fixpipe ? "FixPipe converts the fp32 accumulator to " + dtype + " (pre_conv) first"
                     : "the fp32 accumulator is converted to " + dtype + " on its way into UB" +
                           (biasInUB ? ", then the bias is added in " + dtype : std::string());
    };
    cube->setAttr(kBufferStepAttr, b.getStringAttr(cubeStep(dtypeNameOf(out))));
    explainOp(cube, pass, cube.getNodeName().str() + ": " + cubeStep(typeName(out)) +
                              "; the ops after it in the same kernel read that value, as they "
                              "would from GM");
    // On a FixPipe, CANN's conv fixpipe fusion takes the ReLU family right
    // after the cube into pre_activation (after pre_conv: the same values
    // as the standalone op on the converted result).
    bool inFixpipe = fixpipe;
    for (AscendOpInterface op : chain) {
      inFixpipe = inFixpipe && isa<ReluOp, LeakyReluOp, PReluOp>(op.getOperation());
      StringRef unit = inFixpipe ? "FixPipe pre_activation" : "UB vector";
      op->setAttr(kBufferStepAttr, b.getStringAttr(computesAlone(op, unit, /*forReport=*/true)));
      explainOp(op, pass, op.getNodeName().str() + " runs in " + cube.getNodeName().str() +
                              "'s kernel: " + computesAlone(op, unit, /*forReport=*/false) +
                              ", on the " + typeName(out) + " value");
    }
  }

  /// FU-4's step of a group member that computes as it would alone: on
  /// `unit`, in its own compute dtype, by its rule (CANN's dtype names for
  /// the report, MLIR's for the remarks).
  static std::string computesAlone(AscendOpInterface op, StringRef unit, bool forReport) {
    PrecisionAttr own = op.getPrecisionDecision();
    Type compute = own.getCompute();
    return unit.str() + ", computes in " +
           (forReport ? dtypeNameOf(compute) : typeName(compute)) + " as it would alone (" +
           own.getRule().str() + ")";
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
    emitRemark(nodeLocation(op)) << text << " [FU-4, " << pass << "]";
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
