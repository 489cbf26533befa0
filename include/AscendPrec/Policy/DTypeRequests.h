//===- DTypeRequests.h - which dtypes the rules allow an op ---------------===//
//
// The decision half of precision planning, as pure functions: for one op
// (its dtypes, compute unit, list colour, pins) the ordered dtype requests
// the rules allow (PM-*, ML-*, KD-2, CD-4/CD-5), and the kernel row that
// serves the first request some row fits. The planning pass describes the op,
// calls these and writes the attribute; nothing here needs MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_DTYPEREQUESTS_H
#define ASCENDPREC_POLICY_DTYPEREQUESTS_H

#include "AscendPrec/Policy/Diagnostics.h"
#include "AscendPrec/Policy/Policy.h"

#include <optional>
#include <string>
#include <vector>

namespace ascendprec::policy {

/// An op as planning sees it: its query, which operands and results carry
/// floating-point data, and its origin dtype.
struct OpShape {
  OpQuery query;
  std::vector<bool> floatInputs, floatOutputs;
  int primaryInput = -1, primaryOutput = -1; ///< first float operand/result
  DType origin = DType::Float32;
};

enum class Unit { AICore, AICPU };

/// One dtype the rules allow the op to compute in.
struct Request {
  DType in;                 ///< dtype of the primary float input
  std::optional<DType> out; ///< of the primary float output; nullopt: any
  Unit unit;

  bool operator==(const Request &other) const {
    return in == other.in && out == other.out && unit == other.unit;
  }
};

/// The requests a rule allows, in order of preference, with the rule that
/// decided and the error when no kernel row serves any of them.
struct RequestPlan {
  std::vector<Request> requests;
  Provenance why;
  std::string failureRule, failure;
};

/// What planning knows about the op beyond its dtypes.
struct OpSituation {
  bool cube = false;          ///< computes on the AI Core cube unit
  ListAnswer list;            ///< its op type's mixlist colour (ML-1)
  PinAnswer pin;              ///< customize_dtypes (CD-4)
  KeepDTypeAnswer keep;       ///< keep_dtype (KD-2)
  const KernelRowsAnswer *rows = nullptr; ///< its kernel rows (after pins)
  /// ML-4: the dtype of the producer a gray op follows, and how to say so
  /// ("/conv (f16)"); nullopt when it has no non-constant producer.
  std::optional<DType> followed;
  std::string followedText;
};

/// PM-5..PM-11, ML-2..ML-4, ML-6, KD-2, CD-4/CD-5: the dtype requests for
/// `shape`, strongest rule first. Warnings (ML-2: a white op without a kernel
/// in the low dtype) go to `diags`.
RequestPlan planRequests(const Policy &policy, const OpShape &shape,
                         const OpSituation &situation, DiagnosticList &diags);

/// The dtype a row has at `index` (a one-entry row is variadic).
DType rowDType(const std::vector<DType> &row, size_t index);

/// The row of `rows` that runs `shape` under `request`, preferring rows
/// whose float positions all take the requested dtype; null if none fits.
const KernelRow *pickRow(const std::vector<KernelRow> &rows, const OpShape &shape,
                         const Request &request);

/// The first request of `plan` some row of `rows` fits.
struct RowChoice {
  const KernelRow *row;
  Unit unit;
  DType compute;
};
std::optional<RowChoice> chooseRow(const RequestPlan &plan, const KernelRowsAnswer &rows,
                                   const OpShape &shape);

/// The rows as the error lists them ("\n  AI Core (float16) -> (float16)").
std::string rowsText(const KernelRowsAnswer &rows);

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_DTYPEREQUESTS_H
