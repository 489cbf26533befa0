//===- SearchOutput.h - what a precision search writes and prints ---------===//

#ifndef ASCENDPREC_SESSION_SEARCHOUTPUT_H
#define ASCENDPREC_SESSION_SEARCHOUTPUT_H

#include "AscendPrec/Session/PrecisionSearch.h"

#include <string>
#include <utility>
#include <vector>

namespace ascendprec::session {

/// The files of search/ for `outcome` (Found or BuiltInMode), by name:
/// options.json (whose paths are relative to it), keep_dtype.cfg and
/// modify_mixlist.json when needed, report.lock.cfg. `effectiveOptions`
/// are the run's options (their paths made absolute).
std::vector<std::pair<std::string, std::string>>
searchFiles(const SearchOutcome &outcome, const policy::SessionOptions &effectiveOptions,
            const SearchSettings &settings);

/// Writes searchFiles() into `folder` (search/ in the staging folder), then
/// reads them back as a user would (--session_options=folder/options.json),
/// plans the model again and checks that every op gets the found plan's
/// dtypes. Returns the problem, or empty.
std::string writeAndCheckSearchFiles(const std::string &folder, const SearchOutcome &outcome,
                                     const policy::SessionOptions &effectiveOptions,
                                     const SearchSettings &settings, mlir::ModuleOp imported,
                                     const std::string &searchJsonText);

/// What the terminal shows: the steps, the result against every mode, the
/// steps' table fitted to `width` columns.
std::string searchSummary(const SearchOutcome &outcome, const SearchSettings &settings,
                          const std::vector<report::ReportModeComparison> &modes,
                          const std::vector<std::vector<OutputAccuracy>> &modeOutputs,
                          const std::string &inputsFrom, unsigned width);

/// The search for the HTML report, with whether each mode meets the target.
report::ReportSearch searchReport(const SearchOutcome &outcome, const SearchSettings &settings,
                                  const std::vector<report::ReportModeComparison> &modes,
                                  const std::vector<std::vector<OutputAccuracy>> &modeOutputs);

/// search/search.json.
std::string searchJson(const SearchOutcome &outcome, const SearchSettings &settings,
                       const std::vector<report::ReportModeComparison> &modes,
                       const std::vector<std::vector<OutputAccuracy>> &modeOutputs,
                       const std::string &soc, const std::string &inputsFrom);

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_SEARCHOUTPUT_H
