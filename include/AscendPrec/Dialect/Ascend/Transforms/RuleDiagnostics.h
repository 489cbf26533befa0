//===- RuleDiagnostics.h - diagnostics that report a precision rule -------===//
//
// An error that names a rule of precision-semantics.md (PM-9, CD-5, ...) is
// a rule the user's model or settings cannot meet: a user error. The rule
// travels with the diagnostic as metadata, so a driver classifies failures
// by asking, not by reading the message.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_RULEDIAGNOSTICS_H
#define ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_RULEDIAGNOSTICS_H

#include "AscendPrec/Support/MLIR.h"
#include "mlir/IR/Diagnostics.h"

namespace ascendprec::ascend {

/// Records on `diag` that it reports `rule` (empty: nothing is recorded).
void tagRule(Diagnostic &diag, StringRef rule);
void tagRule(InFlightDiagnostic &diag, StringRef rule);

/// The rule `diag` reports, or empty.
StringRef taggedRule(Diagnostic &diag);

} // namespace ascendprec::ascend

#endif // ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_RULEDIAGNOSTICS_H
