//===- EngineErrors.h - engine errors as Python exceptions ----------------===//
//
// A failed engine step throws EngineError; the translator registered by
// registerEngineErrors turns it into the exception class ascendprec._errors
// chooses for the step (OptionError, ModelError, RunError, ...), carrying
// the error's file, line, column, node, rule and the diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_PYTHON_ENGINEERRORS_H
#define ASCENDPREC_PYTHON_ENGINEERRORS_H

#include "AscendPrec/Policy/Diagnostics.h"
#include "AscendPrec/Session/Diagnostics.h"
#include "AscendPrec/Session/Status.h"

#include <pybind11/pybind11.h>

#include <exception>
#include <string>
#include <vector>

namespace ascendprec::python {

struct EngineError : std::exception {
  std::string step; ///< "options", "load", "plan", "run", "compare", "search", "write"
  session::Error error;
  std::vector<session::Diagnostic> diagnostics;
  std::string text; ///< what(): the message as the CLI prints it
  const char *what() const noexcept override { return text.c_str(); }
};

/// Throws EngineError for a failed `status` of `step`.
[[noreturn]] void raise(const std::string &step, const session::Status &status,
                        std::vector<session::Diagnostic> diagnostics = {});
/// Throws `status` when it failed.
void check(const std::string &step, const session::Status &status,
           const std::vector<session::Diagnostic> &diagnostics = {});

/// The policy's diagnostics (option errors and warnings) as records.
std::vector<session::Diagnostic> toRecords(const policy::DiagnosticList &diagnostics);

pybind11::dict toDict(const session::Diagnostic &diagnostic);

void registerEngineErrors(pybind11::module_ &module);

} // namespace ascendprec::python

#endif // ASCENDPREC_PYTHON_ENGINEERRORS_H
