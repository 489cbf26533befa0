//===- ExitCode.h - prec-compile's exit statuses --------------------------===//

#ifndef ASCENDPREC_TOOLS_PREC_COMPILE_EXITCODE_H
#define ASCENDPREC_TOOLS_PREC_COMPILE_EXITCODE_H

namespace ascendprec::driver {

/// 0 success, 1 a user error (bad option, file or model; a rule that cannot
/// be met), 2 an internal error.
enum ExitCode { Success = 0, UserError = 1, InternalError = 2 };

} // namespace ascendprec::driver

#endif // ASCENDPREC_TOOLS_PREC_COMPILE_EXITCODE_H
