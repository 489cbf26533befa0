//===- MaterializePrecision.cpp - prec-materialize-precision --------------===//
//
// Makes the IR's element types follow the #ascend.precision decisions:
// results take their planned dtypes, operands get a Cast where the producer's
// dtype differs from the consumer's, constants are converted at compile time.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Dialect/Ascend/IR/ConstantConversion.h"
#include "ConstantLoss.h"
#include "AscendPrec/Dialect/Ascend/IR/ValueNames.h"
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h"
#include "PlanningState.h"
#include "PolicyBridge.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace ascendprec::ascend {
#define GEN_PASS_DEF_MATERIALIZEPRECISION
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h.inc"
} // namespace ascendprec::ascend

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

namespace {

/// Hands out one converted value per (value, dtype) pair.
class Converter {
public:
  explicit Converter(ModuleOp module) : module(module) {}

  /// `value` as element type `dtype`: a converted constant, or a Cast right
  /// after the value's definition.
  Value convert(Value value, Type dtype, Operation *user = nullptr) {
    if (getElementTypeOrSelf(value) == dtype)
      return value;
    auto key = std::make_pair(value, dtype);
    if (Value cached = cache.lookup(key))
      return cached;
    auto type = cast<ShapedType>(value.getType()).clone(dtype);
    OpBuilder builder(value.getContext());
    Value converted;
    if (auto constant = value.getDefiningOp<ConstOp>()) {
      if (ElementsAttr folded = convertedElements(constant.getValue(), dtype)) {
        builder.setInsertionPointAfter(constant);
        converted = ConstOp::create(builder, constant.getLoc(), folded,
                                    builder.getStringAttr(constant.getName().str() +
                                                          "/" + dtypeNameOf(dtype)),
                                    nullptr, nullptr, nullptr, nullptr);
        // The values before the conversion, for the fp32 reference of a run
        // (the attribute is the one the constant holds: no copy).
        if (isa<FloatType>(getElementTypeOrSelf(constant.getValue().getType())))
          converted.getDefiningOp()->setAttr(kReferenceValueAttr, constant.getValue());
        ++constantsConverted;
        warnAboutLoss(constant, dtype, user);
      }
    }
    if (!converted) {
      if (Operation *producer = value.getDefiningOp())
        builder.setInsertionPointAfter(producer);
      else
        builder.setInsertionPointToStart(value.getParentBlock());
      std::string name = ascend::valueName(value) + "/Cast_" + dtypeNameOf(dtype);
      auto castOp = CastOp::create(builder, value.getLoc(), type, value,
                                   builder.getStringAttr(name), nullptr,
                                   nullptr, nullptr, nullptr);
      castOp->setAttr(kInsertedAttr, builder.getUnitAttr());
      converted = castOp;
      ++castsInserted;
    }
    cache[key] = converted;
    return converted;
  }

private:
  /// A constant that becomes 0, Inf or flips sign in `dtype` changes what
  /// `user` computes: a warning naming the op and the constant.
  void warnAboutLoss(ConstOp constant, Type dtype, Operation *user) {
    if (!isa<FloatType>(dtype) ||
        !isa<FloatType>(getElementTypeOrSelf(constant.getValue().getType())))
      return;
    std::string loss = describeConstantLoss(constant.getValue(), dtype);
    if (loss.empty())
      return;
    // The diagnostic's location names the op's node.
    Operation *at = user ? user : constant.getOperation();
    InFlightDiagnostic diag = at->emitWarning();
    diag << "constant '" << constant.getName() << "' converted to " << dtypeNameOf(dtype)
         << " for this op: " << loss << "; that changes what the op computes: keep the op in "
         << "fp32 (keep_dtype) or change the constant";
  }

  /// convertElements, once per distinct constant value: exported models
  /// repeat the same small constants (scales, epsilons, biases of zeros)
  /// across their layers.
  ElementsAttr convertedElements(ElementsAttr value, Type dtype) {
    auto [it, inserted] = foldedCache.try_emplace({value, dtype}, nullptr);
    if (inserted)
      it->second = convertElements(value, dtype);
    return it->second;
  }

  ModuleOp module;
  llvm::DenseMap<std::pair<Value, Type>, Value> cache;
  llvm::DenseMap<std::pair<Attribute, Type>, ElementsAttr> foldedCache;

public:
  int64_t castsInserted = 0, constantsConverted = 0;
};

struct MaterializePrecisionPass
    : ascendprec::ascend::impl::MaterializePrecisionBase<MaterializePrecisionPass> {
  using MaterializePrecisionBase::MaterializePrecisionBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Converter converter(module);
    for (auto func : module.getOps<func::FuncOp>()) {
      SmallVector<AscendOpInterface> planned;
      func.walk([&](AscendOpInterface op) {
        if (op.getPrecisionDecision())
          planned.push_back(op);
      });
      for (AscendOpInterface op : planned) {
        PrecisionAttr decision = op.getPrecisionDecision();
        if (op->hasTrait<ascend::ReadsOnlyDimensions>()) {
          // Shape and Size take their operand in whatever dtype its producer
          // computes (producers come first, so it is final): no Cast, and the
          // decision records the dtype actually read.
          SmallVector<Type> inputs;
          for (Value operand : op->getOperands())
            inputs.push_back(getElementTypeOrSelf(operand));
          decision = PrecisionAttr::get(op->getContext(), decision.getOrigin(),
                                        decision.getCompute(), inputs, decision.getOutputs(),
                                        decision.getEngine(), decision.getList(),
                                        decision.getRule(), decision.getSource());
          op.setPrecisionDecision(decision);
        }
        for (auto [index, dtype] : llvm::enumerate(decision.getInputs()))
          op->setOperand(index, converter.convert(op->getOperand(index), dtype, op));
        for (auto [result, dtype] : llvm::zip(op->getResults(), decision.getOutputs()))
          result.setType(cast<ShapedType>(result.getType()).clone(dtype));
      }
      materializeControlFlow(func, converter);
      materializeBoundary(func, converter);
      assignCastsToBufferGroups(func);
    }
    // Pass statistics for -mlir-pass-statistics; the module's counters carry
    // the same numbers to a report written by a later run (prec-opt runs).
    numCastsInserted += converter.castsInserted;
    numConstantsConverted += converter.constantsConverted;
    addToCounter(module, kCastsInsertedAttr, converter.castsInserted);
    addToCounter(module, kConstantsConvertedAttr, converter.constantsConverted);
  }

  /// FU-1: a Cast that a UB-fusion group needs runs in the group's kernel:
  /// the one after a group op (the exit conversion, or between a widened op
  /// and one that is not), and one that only the group's ops read (a side
  /// input such as a residual, widened to fp32 inside the kernel).
  static void assignCastsToBufferGroups(func::FuncOp func) {
    func.walk([](CastOp cast) {
      if (!cast->hasAttr(kInsertedAttr))
        return;
      Operation *owner = cast.getX().getDefiningOp();
      if (!owner || !owner->hasAttr(kBufferGroupAttr)) {
        owner = nullptr;
        for (Operation *user : cast->getUsers()) {
          // A cube op's inputs reach it through L1, not the vector unit: a
          // Cast there stays a kernel of its own.
          auto op = dyn_cast<AscendOpInterface>(user);
          PrecisionAttr decision = op ? op.getPrecisionDecision() : PrecisionAttr();
          Attribute group = user->getAttr(kBufferGroupAttr);
          if (!group || !decision || decision.getEngine() != Engine::AICoreVector ||
              (owner && owner->getAttr(kBufferGroupAttr) != group))
            return;
          owner = user;
        }
      }
      if (!owner)
        return;
      for (StringLiteral attr : {kBufferGroupAttr, kBufferPassAttr})
        cast->setAttr(attr, owner->getAttr(attr));
    });
  }

  /// If, Loop and Scan keep the model's dtypes at their boundary, as
  /// function results do: an operand whose producer now computes in another
  /// dtype is converted to the body argument's dtype, and a yielded value to
  /// the dtype of the result it becomes (docs/control-flow.md).
  void materializeControlFlow(func::FuncOp func, Converter &converter) {
    auto convertTo = [&](Operation *op, unsigned index, Type like) {
      op->setOperand(index, converter.convert(op->getOperand(index),
                                              getElementTypeOrSelf(like)));
    };
    func.walk([&](Operation *op) {
      if (auto loop = dyn_cast<LoopOp>(op)) {
        Block &body = loop.getBody().front();
        unsigned first = loop.getInitial().getBeginOperandIndex();
        for (unsigned i = 0; i < loop.getNumCarried(); ++i)
          convertTo(loop, first + i, body.getArgument(2 + i).getType());
      } else if (auto scan = dyn_cast<ScanOp>(op)) {
        Block &body = scan.getBody().front();
        for (unsigned i = 0; i < body.getNumArguments(); ++i)
          convertTo(scan, i, body.getArgument(i).getType());
      } else if (auto yield = dyn_cast<YieldOp>(op)) {
        Operation *parent = yield->getParentOp();
        // A Loop body yields its condition before the values its results take.
        unsigned skipped = isa<LoopOp>(parent) ? 1 : 0;
        for (unsigned i = skipped; i < yield->getNumOperands(); ++i)
          convertTo(yield, i, parent->getResult(i - skipped).getType());
      }
    });
  }

  /// Function results keep their declared dtypes (or the function type
  /// follows the plan with keep-io-dtypes=false).
  void materializeBoundary(func::FuncOp func, Converter &converter) {
    func.walk([&](func::ReturnOp ret) {
      FunctionType type = func.getFunctionType();
      if (!keepIoDtypes) {
        func.setType(FunctionType::get(func.getContext(), type.getInputs(),
                                       ret.getOperandTypes()));
        return;
      }
      for (auto [index, resultType] : llvm::enumerate(type.getResults()))
        ret->setOperand(index, converter.convert(ret->getOperand(index),
                                                 getElementTypeOrSelf(resultType)));
    });
    if (keepIoDtypes || func.isExternal())
      return;
    // Arguments whose every use wants one dtype take it.
    Block &entry = func.getBody().front();
    SmallVector<Type> inputs(func.getFunctionType().getInputs());
    for (BlockArgument arg : entry.getArguments()) {
      Type wanted;
      bool uniform = true;
      for (OpOperand &use : arg.getUses()) {
        Type user = use.getOwner()->getOperand(use.getOperandNumber()).getType();
        if (auto cast = dyn_cast<CastOp>(use.getOwner());
            cast && cast->hasAttr(kInsertedAttr))
          user = cast.getY().getType();
        uniform &= !wanted || wanted == user;
        wanted = user;
      }
      if (!uniform || !wanted || wanted == arg.getType())
        continue;
      for (OpOperand &use : llvm::make_early_inc_range(arg.getUses()))
        if (auto cast = dyn_cast<CastOp>(use.getOwner());
            cast && cast->hasAttr(kInsertedAttr)) {
          cast.getY().replaceAllUsesWith(arg);
          cast->erase();
          --converter.castsInserted;
        }
      arg.setType(wanted);
      inputs[arg.getArgNumber()] = wanted;
    }
    func.setType(FunctionType::get(func.getContext(), inputs,
                                   func.getFunctionType().getResults()));
  }
};

} // namespace
