//===- PrecisionPlanner.h - decide every op's dtypes (PM, ML, KD, CD, IM) -===//
//
// The logic behind prec-plan-precision, apart from the pass: walks a function
// in order (producers before consumers), asks the policy about each op and
// attaches an #ascend.precision decision and impl_mode.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_TRANSFORMS_PRECISIONPLANNER_H
#define ASCENDPREC_LIB_TRANSFORMS_PRECISIONPLANNER_H

#include "AscendPrec/Support/MLIR.h"
#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Policy/DTypeRequests.h"
#include "AscendPrec/Policy/Policy.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <set>
#include <string>

namespace ascendprec::ascend {

class PrecisionPlanner {
public:
  /// Explains every op, or with `explainOnly` the named nodes and
  /// `OpType::<type>` entries.
  PrecisionPlanner(const ::ascendprec::policy::Policy &policy, bool explain,
                   std::vector<std::string> explainOnly = {})
      : policy(policy), explain(explain),
        explainOnly(explainOnly.begin(), explainOnly.end()) {}

  /// Plans every ascend op of `func` (except Const). Fails after reporting
  /// every op that cannot be planned.
  LogicalResult planFunction(func::FuncOp func);

  /// Model-wide warnings once all functions are planned: KD-4, ML-7, and op
  /// types the operator library does not know.
  void reportModelWarnings(Location loc);

  /// Warnings planning produced, for the report.
  const ::ascendprec::policy::DiagnosticList &warnings() const {
    return collected;
  }

private:
  /// What planning decides for one op, before it becomes a PrecisionAttr.
  struct OpDecision {
    SmallVector<Type> inputs, outputs;
    Type origin, compute;
    ascend::Engine engine = ascend::Engine::AICoreVector;
    ::ascendprec::policy::Provenance why;
    bool listed = false; ///< the mixlist colour applies (a mixed mode, float data)
  };

  LogicalResult planOp(ascend::AscendOpInterface op);
  /// The op as the policy sees it (names, dtypes, origin); fails on an
  /// element type no CANN dtype names.
  LogicalResult describeOp(ascend::AscendOpInterface op,
                           ::ascendprec::policy::OpShape &shape);
  /// Whether the operator library has the op's type in a form that fits it
  /// (`misfit`: it has the type, but not for this generic op's arity).
  bool inOperatorLibrary(ascend::AscendOpInterface op, const std::string &opType,
                         bool &misfit);
  /// The op keeps its dtypes (Casts, integer ops, ops the library lacks).
  void keepAsIs(ascend::AscendOpInterface op, OpDecision &decision,
                ::ascendprec::policy::Provenance why);
  /// Asks the policy (DTypeRequests) and fills `decision` from the kernel
  /// row that serves the first request.
  LogicalResult decideByRules(ascend::AscendOpInterface op,
                              const ::ascendprec::policy::OpShape &shape,
                              OpDecision &decision);
  void noteUnplannable(ascend::AscendOpInterface op, const ::ascendprec::policy::OpShape &shape,
                       const ::ascendprec::policy::RequestPlan &plan);
  void noteFallbacks(ascend::AscendOpInterface op, const ::ascendprec::policy::OpShape &shape,
                     const ::ascendprec::policy::RequestPlan &plan,
                     const ::ascendprec::policy::RowChoice &choice, const OpDecision &decision);
  /// Writes the decision and the impl mode on the op; explains it if asked.
  void recordDecision(ascend::AscendOpInterface op, const ::ascendprec::policy::OpShape &shape,
                      const OpDecision &decision);
  /// Emits the policy's per-op diagnostics on `op` (clearing `diags`);
  /// true when one was an error.
  bool flushDiagnostics(Operation *op, ::ascendprec::policy::DiagnosticList &diags);
  /// ML-4: the dtype a gray op follows, or null (graph input / constants).
  Type followedDType(ascend::AscendOpInterface op, std::string &producerName);

  bool shouldExplain(const policy::OpQuery &op);

  const ::ascendprec::policy::Policy &policy;
  bool explain;
  std::set<std::string> explainOnly, explainMatched;
  /// Ops planned onto AI CPU, or below float32 under force_fp32, by op type
  /// and dtype, for one warning each.
  struct Fallback {
    std::optional<Location> loc;
    std::string rule;
    std::vector<std::string> nodes;
  };
  std::map<std::pair<std::string, std::string>, Fallback> aicpuFallbacks, fp32Fallbacks;
  /// Ops CANN's ONNX parser sends to the AI CPU by their attributes (ST-1).
  std::map<std::pair<std::string, std::string>, Fallback> parserAicpuFallbacks;
  /// Ops no kernel row fits, grouped by op type, origin dtype and cause, in
  /// model order, for one error per group naming its nodes.
  struct Unplannable {
    Operation *first = nullptr;
    std::string opType, origin, failure, rule, rows;
    std::optional<Location> configured; ///< the config entry that asked
    std::vector<std::string> nodes;
  };
  std::vector<Unplannable> unplannable;
  std::map<std::string, size_t> unplannableIndex;
  /// Emits the errors for `unplannable`; true when there were any.
  bool reportUnplannable();
  /// Answers that depend only on the op type, asked once per type.
  const ::ascendprec::policy::ListAnswer &listColorOf(const std::string &opType);
  const ::ascendprec::policy::KernelRowsAnswer &rowsOf(
      const ::ascendprec::policy::OpQuery &query);

  /// The planned element type of every value produced so far.
  llvm::DenseMap<Value, Type> planned;
  std::map<std::string, ::ascendprec::policy::ListAnswer> listColors;
  std::map<std::string, ::ascendprec::policy::KernelRowsAnswer> unpinnedRows;
  std::set<std::string> nodeNames, opTypes, unknownOpTypes;
  /// Op types of ascend.generic ops whose operands or results do not fit
  /// the library entry of their op type.
  std::set<std::string> misfitGenericOpTypes;
  ::ascendprec::policy::DiagnosticList collected;
};

} // namespace ascendprec::ascend

#endif // ASCENDPREC_LIB_TRANSFORMS_PRECISIONPLANNER_H
