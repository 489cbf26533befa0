//===- ReportFiles.cpp - writing the report files -------------------------===//
//
// Shared by prec-precision-report and prec-compile (which collects the
// report data once, for the files and its terminal table).
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Report/Report.h"

#include "AscendPrec/Policy/Diagnostics.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Threading.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::report;

namespace {

using ReportWriter = void (*)(const ReportData &, raw_ostream &);

/// Streams `write`'s output to `path` through a temporary file renamed into
/// place, so a failure leaves no partial file. Returns the error, or empty.
/// (Not llvm::sys::fs::TempFile: it registers LLVM's signal handlers and an
/// alternate signal stack on the calling thread, a report-writer thread
/// here, which prec-compile's own interrupt handling and ASan's thread
/// teardown do not expect; not llvm::writeToOutput, which ignores the
/// stream's error; see docs/decisions.md.)
std::string writeAtomically(StringRef path, ReportWriter write, const ReportData &data) {
  SmallString<128> pattern(path);
  pattern += ".tmp-%%%%%%";
  int fd;
  SmallString<128> tempPath;
  if (std::error_code error = llvm::sys::fs::createUniqueFile(pattern, fd, tempPath))
    return "cannot write '" + path.str() + "': " + error.message();
  std::error_code streamError;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.SetBufferSize(1 << 18); // fewer write calls than a 4 KB block
    write(data, os);
    os.flush();
    streamError = os.error();
    os.clear_error();
  }
  if (!streamError)
    streamError = llvm::sys::fs::rename(tempPath, path);
  if (streamError) {
    llvm::sys::fs::remove(tempPath);
    return "cannot write '" + path.str() + "': " + streamError.message();
  }
  return {};
}

/// One warning for every node the lockfile could not pin by name (CD-1).
void warnAboutLockfileOmissions(ModuleOp module, const ReportData &data) {
  std::vector<std::string> lines;
  std::vector<LockfileOmission> omitted = lockfileLines(data, lines);
  if (omitted.empty())
    return;
  InFlightDiagnostic warning = emitWarning(module.getLoc())
                               << "the lockfile leaves out " << omitted.size()
                               << (omitted.size() == 1 ? " node" : " nodes")
                               << " whose names customize_dtypes cannot express: ";
  for (size_t i = 0; i < omitted.size() && i < 3; ++i)
    warning << (i ? "; '" : "'")
            << ::ascendprec::policy::escapeForDisplay(omitted[i].name) << "' ("
            << omitted[i].problem << ")";
  if (omitted.size() > 3)
    warning << "; and " << omitted.size() - 3 << " more (listed in the lockfile)";
  warning << "; pin them by op type or with keep_dtype [CD-1]";
}

} // namespace

ReportFiles ReportFiles::besides(StringRef jsonPath) {
  std::string base = jsonPath.str();
  if (StringRef(base).ends_with(".json"))
    base.resize(base.size() - 5);
  return {jsonPath.str(), base + ".txt", base + ".dot", base + ".html", base + ".lock.cfg"};
}

LogicalResult ascendprec::report::writeReportFiles(ModuleOp module, const ReportData &data,
                                                 const ReportFiles &files) {
  std::pair<const std::string *, ReportWriter> outputs[] = {
      {&files.json, writeReportJson},
      {&files.text, writeReportText},
      {&files.dot, writeReportDot},
      {&files.html, writeReportHtml},
      {&files.lockfile, writeReportLockfile}};
  // Files are formatted and written in parallel (each writer only reads
  // `data`): on a 200k-op model they are ~200 MB together. "-" (stdout)
  // goes after, in order.
  SmallVector<std::pair<StringRef, ReportWriter>> toFiles, toStdout;
  for (auto [path, write] : outputs)
    if (!path->empty())
      (*path == "-" ? toStdout : toFiles).push_back({*path, write});
  SmallVector<std::string> errors(toFiles.size());
  parallelFor(module.getContext(), 0, toFiles.size(), [&](size_t i) {
    errors[i] = writeAtomically(toFiles[i].first, toFiles[i].second, data);
  });
  for (auto [path, write] : toStdout)
    write(data, llvm::outs());
  bool failedToWrite = false;
  for (const std::string &error : errors)
    if (!error.empty()) {
      emitError(module.getLoc()) << error;
      failedToWrite = true;
    }
  if (failedToWrite)
    return failure();
  if (!files.lockfile.empty())
    warnAboutLockfileOmissions(module, data);
  return success();
}
