//===- EngineErrors.cpp - engine errors as Python exceptions --------------===//

#include "EngineErrors.h"

#include <pybind11/stl.h>

namespace py = pybind11;

namespace ascendprec::python {

namespace {

const char *severityName(session::Diagnostic::Severity severity) {
  switch (severity) {
  case session::Diagnostic::Severity::Error:
    return "error";
  case session::Diagnostic::Severity::Warning:
    return "warning";
  case session::Diagnostic::Severity::Note:
    return "note";
  case session::Diagnostic::Severity::Remark:
    return "remark";
  }
  return "error";
}

const char *kindName(session::Error::Kind kind) {
  switch (kind) {
  case session::Error::Kind::User:
    return "user";
  case session::Error::Kind::Internal:
    return "internal";
  case session::Error::Kind::Interrupted:
    return "interrupted";
  }
  return "user";
}

} // namespace

void raise(const std::string &step, const session::Status &status,
           std::vector<session::Diagnostic> diagnostics) {
  EngineError error;
  error.step = step;
  error.error = status.error();
  error.diagnostics = std::move(diagnostics);
  error.text = status.error().format("ascendprec");
  while (!error.text.empty() && error.text.back() == '\n')
    error.text.pop_back();
  throw error;
}

void check(const std::string &step, const session::Status &status,
           const std::vector<session::Diagnostic> &diagnostics) {
  if (!status)
    raise(step, status, diagnostics);
}

std::vector<session::Diagnostic> toRecords(const policy::DiagnosticList &diagnostics) {
  std::vector<session::Diagnostic> records;
  for (const policy::Diagnostic &diag : diagnostics.all()) {
    session::Diagnostic record;
    switch (diag.severity) {
    case policy::Severity::Error:
      record.severity = session::Diagnostic::Severity::Error;
      break;
    case policy::Severity::Warning:
      record.severity = session::Diagnostic::Severity::Warning;
      break;
    default:
      record.severity = session::Diagnostic::Severity::Note;
      break;
    }
    record.file = diag.loc.file;
    record.line = diag.loc.line;
    record.column = diag.loc.column;
    record.rule = diag.rule;
    record.message = diag.message;
    records.push_back(std::move(record));
  }
  return records;
}

py::dict toDict(const session::Diagnostic &diagnostic) {
  py::dict dict;
  dict["severity"] = severityName(diagnostic.severity);
  dict["file"] = diagnostic.file;
  dict["line"] = diagnostic.line;
  dict["column"] = diagnostic.column;
  dict["node"] = diagnostic.node;
  dict["rule"] = diagnostic.rule;
  dict["message"] = diagnostic.message;
  return dict;
}

void registerEngineErrors(py::module_ &) {
  py::register_exception_translator([](std::exception_ptr pointer) {
    try {
      if (pointer)
        std::rethrow_exception(pointer);
    } catch (const EngineError &thrown) {
      const session::Error &error = thrown.error;
      if (error.kind == session::Error::Kind::Interrupted) {
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        return;
      }
      py::list diagnostics;
      for (const session::Diagnostic &diagnostic : thrown.diagnostics)
        diagnostics.append(toDict(diagnostic));
      py::object made = py::module_::import("ascendprec._errors")
                            .attr("from_engine")(thrown.step, kindName(error.kind), error.file,
                                                 error.line, error.column, error.node, error.rule,
                                                 error.message, error.details, diagnostics,
                                                 thrown.text);
      PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(made.ptr())), made.ptr());
    }
  });
}

} // namespace ascendprec::python
