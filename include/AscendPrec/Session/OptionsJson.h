//===- OptionsJson.h - session options written back as a file -------------===//

#ifndef ASCENDPREC_SESSION_OPTIONSJSON_H
#define ASCENDPREC_SESSION_OPTIONSJSON_H

#include "AscendPrec/Policy/Options.h"

#include <map>
#include <string>

namespace ascendprec::session {

/// `options` as a session-options file (OP-1): paths absolute, integers and
/// booleans as JSON numbers and booleans. `replaced` sets (or, with an empty
/// value, removes) options, written as given: the search's files are named
/// relative to the options file that names them.
std::string effectiveOptionsJson(const policy::SessionOptions &options,
                                 const std::map<std::string, std::string> &replaced = {});

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_OPTIONSJSON_H
