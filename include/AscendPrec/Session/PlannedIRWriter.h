//===- PlannedIRWriter.h - planned.mlir without copies of the weights -----===//
//
// MLIR prints a resource blob by first building its whole hex text in
// memory, even when eliding it: for a model with a 256 MB weight that is a
// transient of several times the model. This writer never does: constants
// backed by resources are printed as references, and their bytes are either
// left out (the default; `dense_resource<__elided__>`, as MLIR elides dense
// values) or streamed into the file's dialect_resources section.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SESSION_PLANNEDIRWRITER_H
#define ASCENDPREC_SESSION_PLANNEDIRWRITER_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace ascendprec::session {

/// Constants with more elements than this are elided unless `fullConstants`.
constexpr int64_t kElideConstantsLargerThan = 16;

/// Writes `module`, which must have been verified, to `path`. Rewrites the
/// module's resource-backed constants to blob-less handles first, so call it
/// last; it touches nothing but the module (safe beside the report writers,
/// which read ReportData only). Returns false with `error` set when the file
/// cannot be written.
bool writePlannedIR(const std::string &path, mlir::ModuleOp module, bool fullConstants,
                    std::string &error);

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_PLANNEDIRWRITER_H
