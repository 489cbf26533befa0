//===- OptionReference.h - the option table as Markdown -------------------===//

#ifndef ASCENDPREC_POLICY_OPTIONREFERENCE_H
#define ASCENDPREC_POLICY_OPTIONREFERENCE_H

#include <string>

namespace ascendprec::policy {

/// docs/generated/options.md: every option, grouped as CANN's docs group
/// them, with type, accepted values, rule and whether it has an effect.
std::string optionReferenceMarkdown();

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_OPTIONREFERENCE_H
