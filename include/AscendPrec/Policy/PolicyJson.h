//===- PolicyJson.h - the resolved policy as JSON (--print-policy) --------===//

#ifndef ASCENDPREC_POLICY_POLICYJSON_H
#define ASCENDPREC_POLICY_POLICYJSON_H

#include "AscendPrec/Policy/Policy.h"

#include <string>

namespace ascendprec::policy {

/// Everything the policy resolved: options with their sources, the mode and
/// why, the library, every op type's list colour, the parsed config files
/// and the build diagnostics. Schema: docs/reference/print-policy.md.
std::string policyToJson(const Policy &policy);

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_POLICYJSON_H
