//===- session.cpp - plans and runs a model through the installed engine --===//
//
// session-consumer MODEL OUTPUT_DIR: plans MODEL for Ascend910B3 under
// allow_mix_precision, runs it on seeded random inputs (seed 7) and writes
// the output folder, as `prec-compile MODEL --soc_version=Ascend910B3
// --precision_mode=allow_mix_precision --run --run-seed=7` does; run.sh
// compares the two folders. Prints one line per output.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Session/Session.h"

#include "llvm/Support/raw_ostream.h"

using namespace ascendprec;

namespace {

int fail(const session::Status &status, const session::Session &engine) {
  for (const session::Diagnostic &diagnostic : engine.diagnostics())
    if (diagnostic.severity == session::Diagnostic::Severity::Error)
      llvm::errs() << diagnostic.file << ":" << diagnostic.line << ": " << diagnostic.message
                   << "\n";
  llvm::errs() << status.error().format("session-consumer");
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: session-consumer MODEL OUTPUT_DIR\n";
    return 2;
  }
  policy::DiagnosticList diagnostics;
  std::optional<policy::ParsedCommandLine> options = session::parseNamedOptions(
      {{"soc_version", "Ascend910B3"}, {"precision_mode", "allow_mix_precision"}}, diagnostics);
  if (!options) {
    llvm::errs() << diagnostics.format();
    return 1;
  }
  session::Session engine(options->options);
  if (session::Status status = engine.resolve(diagnostics); !status) {
    llvm::errs() << diagnostics.format();
    return 1;
  }
  if (session::Status status = engine.loadFile(argv[1]); !status)
    return fail(status, engine);
  if (session::Status status = engine.plan(); !status)
    return fail(status, engine);
  session::RunSettings run;
  run.seed = 7;
  if (session::Status status = engine.run(session::InputSource{}, run); !status)
    return fail(status, engine);
  std::vector<std::string> written;
  if (session::Status status = engine.writeFolder(argv[2], written); !status)
    return fail(status, engine);
  const report::ReportData &report = engine.report();
  llvm::outs() << report.nodes.size() << " ops, est. " << report.estDeviceUs() << " us\n";
  for (const session::OutputAccuracy &output : engine.accuracy()->outputs)
    llvm::outs() << "output " << output.name << ": cosine " << output.vsReference.cosine << "\n";
  return 0;
}
