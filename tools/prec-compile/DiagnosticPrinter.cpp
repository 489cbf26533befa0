//===- DiagnosticPrinter.cpp - how prec-compile shows MLIR diagnostics ----===//

#include "DiagnosticPrinter.h"

#include "AscendPrec/Policy/Diagnostics.h"
#include "AscendPrec/Session/Diagnostics.h"
#include "AscendPrec/Report/TextWrap.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace ascendprec::driver {

using session::describeLocation;


namespace {

/// True when `loc` points at a line of a text file (an .mlir model or a
/// config file), which the printer shows with a caret.
bool hasSourceLine(mlir::Location loc) {
  if (auto name = llvm::dyn_cast<mlir::NameLoc>(loc))
    loc = name.getChildLoc();
  auto file = llvm::dyn_cast<mlir::FileLineColLoc>(loc);
  return file && file.getLine() != 0;
}

const char *severityName(mlir::DiagnosticSeverity severity) {
  switch (severity) {
  case mlir::DiagnosticSeverity::Error:
    return "error";
  case mlir::DiagnosticSeverity::Warning:
    return "warning";
  case mlir::DiagnosticSeverity::Note:
    return "note";
  case mlir::DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

} // namespace

DiagnosticPrinter::DiagnosticPrinter(mlir::MLIRContext &context, llvm::SourceMgr &sources,
                                     const LogFilter &log, Progress &progress,
                                     unsigned wrapWidth, bool groupRemarks)
    : log(log), progress(progress), wrapWidth(wrapWidth), groupRemarks(groupRemarks),
      printer(sources, &context, llvm::errs()) {}

void DiagnosticPrinter::print(mlir::Diagnostic &diag) {
  bool isError = diag.getSeverity() == mlir::DiagnosticSeverity::Error;
  if (!log.shows(isError ? policy::Severity::Error : policy::Severity::Warning))
    return;
  if (groupRemarks && diag.getSeverity() == mlir::DiagnosticSeverity::Remark) {
    keep(diag);
    return;
  }
  progress.breakLine();
  show(diag);
  // MLIR's "see current operation: <op in generic form>" note is for
  // compiler developers; the message already names the node.
  for (mlir::Diagnostic &note : diag.getNotes())
    if (!llvm::StringRef(note.str()).starts_with("see current operation"))
      show(note);
}

void DiagnosticPrinter::show(mlir::Diagnostic &diag) {
  // Node names (anything an exporter wrote) are escaped: control characters
  // and bytes that are not UTF-8.
  std::string text = policy::escapeForDisplay(diag.str(), /*keepNewlines=*/true);
  if (hasSourceLine(diag.getLocation())) {
    printer.emitDiagnostic(diag.getLocation(), text, diag.getSeverity());
    return;
  }
  // A binary model has no lines: name the file and the node instead of
  // "model.onnx:0:0".
  std::string where = describeLocation(diag.getLocation());
  std::string line = (where.empty() ? "" : where + ": ") + severityName(diag.getSeverity()) +
                     ": " + text + "\n";
  llvm::errs() << (wrapWidth ? report::wrapText(line, wrapWidth) : line);
}

void DiagnosticPrinter::keep(mlir::Diagnostic &diag) {
  mlir::Location loc = diag.getLocation();
  std::string node;
  if (auto name = llvm::dyn_cast<mlir::NameLoc>(loc)) {
    node = name.getName().str();
    loc = name.getChildLoc();
  }
  std::string location;
  if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(loc)) {
    if (modelFile.empty())
      modelFile = file.getFilename().str();
    if (file.getLine())
      location = file.getFilename().str() + ":" + std::to_string(file.getLine()) + ":" +
                 std::to_string(file.getColumn());
  }
  auto [it, inserted] = explanationOf.try_emplace(node, explanations.size());
  if (inserted)
    explanations.push_back({node, location, {}});
  // A remark about no node (a config file's line) keeps its own location.
  explanations[it->second].remarks.push_back(
      node.empty() && !location.empty() ? location + ": " + diag.str() : diag.str());
}

void DiagnosticPrinter::printExplanations(unsigned width) {
  if (explanations.empty())
    return;
  progress.breakLine();
  size_t nodes = llvm::count_if(explanations,
                                [](const Explanation &e) { return !e.node.empty(); });
  std::string text = "--explain" +
                     (modelFile.empty() ? std::string()
                                        : " for " + policy::escapeForDisplay(modelFile)) +
                     ": " + std::to_string(nodes) + (nodes == 1 ? " node" : " nodes") + "\n";
  for (const Explanation &explanation : explanations) {
    // The block's header names the node once; the remarks that begin with
    // its name say the rest. "conv (with bn, fused into it) computes ..."
    // gives its parenthesis to the header.
    llvm::StringRef node = explanation.node;
    std::string header = node.empty() ? "the model" : node.str();
    std::vector<std::string> lines;
    bool fusedNamed = false;
    for (const std::string &original : explanation.remarks) {
      llvm::StringRef remark = original, rest = original;
      if (!node.empty() && rest.consume_front(node) &&
          (rest.consume_front(": ") || rest.consume_front(" "))) {
        remark = rest;
        if (!fusedNamed && remark.starts_with("(with ") && remark.contains(") ")) {
          auto [fusedInto, after] = remark.split(") ");
          header += " " + fusedInto.str() + ")";
          remark = after;
          fusedNamed = true;
        }
      }
      lines.push_back("  " + remark.str());
    }
    if (!node.empty() && !explanation.location.empty())
      header += "  [" + explanation.location + "]";
    text += policy::escapeForDisplay(header) + "\n";
    for (const std::string &line : lines)
      text += policy::escapeForDisplay(line) + "\n";
  }
  llvm::errs() << report::wrapText(text, width);
  explanations.clear();
  explanationOf.clear();
}

} // namespace ascendprec::driver
