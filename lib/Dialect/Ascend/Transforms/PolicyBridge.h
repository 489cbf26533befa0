//===- PolicyBridge.h - the plain-C++ policy seen from MLIR ---------------===//
//
// Converts policy locations and diagnostics into MLIR ones (config files
// become FileLineColLoc, so errors print as file:line:col) and policy dtypes
// into element types.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_TRANSFORMS_POLICYBRIDGE_H
#define ASCENDPREC_LIB_TRANSFORMS_POLICYBRIDGE_H

#include "AscendPrec/Support/MLIR.h"
#include "AscendPrec/Policy/Policy.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Types.h"
#include "mlir/Pass/Pass.h"

#include <cassert>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ascendprec::ascend {

/// A config-file position as an MLIR location; `fallback` when unknown.
Location toLocation(MLIRContext *context, const policy::SourceLoc &loc,
                    Location fallback);

/// Attaches the policy diagnostic's notes and rule to an MLIR diagnostic.
void emitPolicyDiagnostic(MLIRContext *context, const policy::Diagnostic &diag,
                          Location fallback);
void emitPolicyDiagnostics(MLIRContext *context,
                           const policy::DiagnosticList &diags,
                           Location fallback);

std::optional<policy::DType> toDType(Type type);
/// Null for dtypes without an MLIR element type (hifloat8).
Type toMlirType(MLIRContext *context, policy::DType dtype);
/// CANN's name of an element type ("float16"), or its MLIR spelling.
std::string dtypeNameOf(Type type);

/// Builds the policy from CANN option values (empty values are unset) and an
/// optional session file; reports every diagnostic through MLIR.
std::optional<policy::Policy>
buildPolicyFromOptions(MLIRContext *context,
                       const std::vector<std::pair<std::string, std::string>> &options,
                       const std::string &sessionFile, Location loc);

/// The policy a pass runs on: `prebuilt` when the driver gave one, else one
/// built from the pass's CANN options into `storage`. Null once the errors
/// are reported.
const policy::Policy *
resolvePassPolicy(const policy::Policy *prebuilt, std::optional<policy::Policy> &storage,
                  MLIRContext *context,
                  const std::vector<std::pair<std::string, std::string>> &options,
                  const std::string &sessionFile, Location loc);

/// A pass of `PassT` (with a CannPassOptions member `cann`) built from
/// `options` and CANN's options `cann`, which must be pass options of the
/// option table.
template <typename PassT, typename OptionsT>
std::unique_ptr<Pass> createWithCannOptions(const OptionsT &options,
                                            const std::vector<std::pair<std::string, std::string>> &cann) {
  auto pass = std::make_unique<PassT>(options);
  [[maybe_unused]] bool known = pass->cann.assign(cann);
  assert(known && "a CANN option that is not a pass option of the table");
  return pass;
}

} // namespace ascendprec::ascend

#endif // ASCENDPREC_LIB_TRANSFORMS_POLICYBRIDGE_H
