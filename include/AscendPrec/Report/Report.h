//===- Report.h - the precision report's data and its formats -------------===//
//
// What planning decided, op by op (ReportData), and the files and tables
// made from it. Reading the data off planned IR is the Transforms library's
// job (Transforms/CollectReport.h); everything here only formats it.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_REPORT_REPORT_H
#define ASCENDPREC_REPORT_REPORT_H

#include "AscendPrec/Policy/AtcRefusals.h"
#include "AscendPrec/Support/MLIR.h"
#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ascendprec::report {

struct ReportNode {
  std::string name, opType, engine, originDType, computeDType, implMode, list,
      rule, source;
  std::vector<std::string> inputDTypes, outputDTypes, absorbed;
  /// The fusion passes (CANN's names) that absorbed `absorbed`, in order.
  std::vector<std::string> fusedBy;
  /// UB fusion: the cube op's name for every op of its kernel, and the pass.
  std::string bufferGroup, bufferPass;
  /// FU-4: where in the fused kernel the op converts or computes.
  std::string bufferStep;
  /// Node names of the ascend ops (or "arg<N>") feeding each operand.
  std::vector<std::string> producers;
  bool insertedCast = false; ///< a Cast materialization added
  /// An ascend.generic op: ONNX import had no dedicated op for it.
  bool generic = false;
  /// A generic op of an If branch that cannot run with the given input
  /// shapes (kUnshapedBranchAttr): the branch, else empty.
  std::string unshapedBranch;
  /// Where the op sits inside control flow, outermost first
  /// ("If '/If_0' then / Loop '/Loop' body"); empty in the main graph.
  std::string region;
  /// After lowering (issue 13): the kernel computing the op (empty for a
  /// view or an op left unlowered) and its estimated device time; a fused
  /// kernel's time is on its first node, the others show 0.
  std::string kernel;
  std::optional<double> estUs;
  /// After a run (--run): rel_rmse of the op's output against the fp32
  /// reference (a fused kernel's error is on its first node).
  std::optional<double> relErr;
};

/// A model output's measured accuracy (--run), for the report.
struct ReportOutputAccuracy {
  std::string name;
  double relRmse = 0, maxAbsErr = 0, cosine = 1;
  std::optional<bool> withinTolerance; ///< vs the expected outputs, when given
};

/// One row of --compare-modes.
struct ReportModeComparison {
  std::string mode;
  int64_t lowPrecisionOps = 0, casts = 0;
  double estDeviceUs = 0;
  double relRmse = 0; ///< the worst output's, vs the fp32 reference
  std::string note;   ///< why a mode was not run, else empty
};

/// One plan a precision search ran (--search-precision).
struct ReportSearchStep {
  std::string change;     ///< what changed, with the op names
  int64_t opsInFp32 = 0;  ///< ops the search keeps in their origin dtype
  double estDeviceUs = 0;
  std::string values;     ///< the target's metrics, "cosine 0.9999123"
  bool meets = false;
  std::string verdict;    ///< "dropped", "kept" (pruning steps), "not used"
  bool result = false;    ///< the step whose plan is the result
  std::string note;       ///< why the plan could not run
};

/// --search-precision: the steps and the plan found.
struct ReportSearch {
  std::string target, startMode;
  std::string result;     ///< "force_fp16 + 3 ops (keep_dtype)"
  std::string message;    ///< why no op edit was found, when a mode is used
  double estDeviceUs = 0;
  double relRmse = 0;     ///< the worst output's, for the modes plot
  std::string values;
  std::vector<ReportSearchStep> steps;
  /// The target as a line on the modes plot (its y axis is the worst
  /// output's rel rmse): set when the target is one rel_rmse bound on every
  /// output.
  std::optional<double> relRmseBound;
  /// Whether each of ReportData::modes meets the target (same order).
  std::vector<bool> modeMeets;
};

/// One lowered kernel's estimate, for the time breakdown.
struct KernelEstimate {
  std::string name, engine;
  /// The launch's first node; differs from `name` when the launch reuses a
  /// kernel built for another node of the same signature.
  std::string node;
  int64_t blockDim = 1;
  double us = 0, cubeUs = 0, vectorUs = 0, moveUs = 0;
  double launchUs = 0; ///< of `us`, the launch's fixed part
  std::vector<std::string> nodes;
  bool castOnly = false; ///< computes only inserted Casts
  /// In the totals: false for the launches of an If's shorter branch (an If
  /// runs one branch; the estimate counts the longer).
  bool counted = true;
};

/// The node name, followed by the names fused into it: "conv (+bn, relu)".
std::string displayName(const ReportNode &node);

struct ReportData {
  std::string socVersion, precisionMode;
  std::map<std::string, std::string> options;
  std::vector<ReportNode> nodes; ///< planned ops, then inserted Casts
  /// The graph inputs, by the names producers use for them.
  std::vector<std::string> graphInputs;
  int64_t castsInserted = 0, castsRemoved = 0, constantsConverted = 0;
  struct Diagnostic {
    std::string severity, rule, location, message;
  };
  std::vector<Diagnostic> diagnostics;
  /// ATC's refusals (E13010): the parser keys of the ONNX model that no
  /// CANN plugin registers, with their nodes (data/onnx/
  /// parser-plugins.tsv). `atcChecked` when the model was ONNX and its
  /// nodes were checked (an .mlir model is not).
  bool atcChecked = false;
  std::vector<policy::AtcRefusal> atcRefusals;

  /// Planned ops only (what "ops" counts in the summary).
  size_t plannedCount() const;
  /// Planned ops that are ascend.generic.
  /// Generic ops, those of branches that cannot run at the given shapes
  /// left out (unshapedBranchCount counts them).
  size_t genericCount() const;
  size_t unshapedBranchCount() const;
  /// FU-1: how many fusions each pass made (graph fusions and UB groups).
  std::map<std::string, int64_t> fusionsByPass() const;
  /// Graph fusions only: ops absorbed, by pass.
  std::map<std::string, int64_t> graphFusionsByPass() const;
  /// UB fusion only: groups (one kernel each), by pass.
  std::map<std::string, int64_t> bufferGroupsByPass() const;
  /// Inserted Casts that run inside a UB group's kernel (FU-1).
  int64_t castsInBufferGroups() const;

  /// Kernel estimates, when the model was lowered: one per launch, in
  /// launch order (ops of one signature share a kernel, so a name repeats).
  bool lowered = false;
  std::vector<KernelEstimate> kernels;
  /// Distinct kernels among the launches.
  size_t distinctKernels() const;
  /// Planned ops the lowering left without a kernel.
  std::vector<std::string> unlowered;
  /// The sum of every kernel's estimate, microseconds.
  double estDeviceUs() const;
  /// Launches left out of the totals (in the shorter branch of an If).
  size_t uncountedLaunches() const;
  /// Of which in kernels that only compute inserted Casts.
  double estCastUs() const;
  /// Of which the launches' fixed part (docs/cost-model.md, "Launch").
  double estLaunchUs() const;
  /// The counted launches (the summary line's "in N kernel launches").
  size_t countedLaunches() const;
  /// Estimated time by kernel engine (cube, vector, mix, aicpu).
  std::map<std::string, double> estUsByEngine() const;
  /// The `count` longest launches, longest first, earlier first among
  /// equals.
  std::vector<const KernelEstimate *> longestKernels(size_t count) const;

  /// After a run (--run): the outputs' accuracy and the ops where the error
  /// first jumps (node names).
  bool measured = false;
  std::vector<ReportOutputAccuracy> outputAccuracy;
  std::vector<std::string> errorJumps;
  /// Each launch's error (rel rmse), in the order the graph runs them.
  std::vector<std::pair<std::string, double>> errorAlongGraph;
  /// --compare-modes, one row per precision mode.
  std::vector<ReportModeComparison> modes;
  /// --search-precision's result.
  std::optional<ReportSearch> search;
};

/// "1.2e-04" for an error, "-" when not measured.
std::string errorCell(const std::optional<double> &error);

/// Where the report goes; an empty path is not written, "-" is stdout.
struct ReportFiles {
  std::string json, text, dot, html, lockfile;
  /// FILE.json with FILE.txt, FILE.dot, FILE.html and FILE.lock.cfg.
  static ReportFiles besides(StringRef jsonPath);
};

/// Writes every file of `files` atomically (in parallel), reports failures
/// and the nodes the lockfile leaves out as diagnostics on `module`.
LogicalResult writeReportFiles(ModuleOp module, const ReportData &data,
                               const ReportFiles &files);

// The report files' formats, streamed (a 200k-op model's files are ~300 MB
// together; none of them is held in memory).
void writeReportJson(const ReportData &report, raw_ostream &os);
void writeReportText(const ReportData &report, raw_ostream &os);
void writeReportDot(const ReportData &report, raw_ostream &os);
void writeReportHtml(const ReportData &report, raw_ostream &os);
/// customize_dtypes lines that pin every planned op to its decision.
void writeReportLockfile(const ReportData &report, raw_ostream &os);
/// The fill colour for a compute dtype in the picture and the HTML table.
std::string reportColorFor(const std::string &dtype);
/// A node's estimated time for a table cell ("-" when it has none).
std::string estimateCell(const ReportNode &node);
/// "Device time (est.) 38.6 us: cube 12.2 us, ...; Longest: ..." and a
/// newline, or "" when the model was not lowered.
std::string reportTimeLine(const ReportData &report, size_t top = 3);
/// An estimated time for people: "812 us", "38.6 us", "2.31 ms".
std::string formatUs(double us);
/// "SoC ..., precision mode ...: N ops, M casts inserted, K removed"
std::string reportSummaryLine(const ReportData &report);
/// Above this many rows, the terminal table has one row per distinct
/// decision (with its op count) instead of one per op.
constexpr size_t kTerminalRowLimit = 60;
/// The table for a terminal `width` columns wide (ReportTable.cpp);
/// reportText has every op and every column in full.
std::string reportTerminalTable(const ReportData &report, unsigned width);

/// A node the lockfile cannot pin by name, and why.
struct LockfileOmission {
  std::string name, problem;
};
/// The lockfile's lines (appended to `lines`) and the nodes it leaves out.
std::vector<LockfileOmission> lockfileLines(const ReportData &report,
                                            std::vector<std::string> &lines);

} // namespace ascendprec::report

#endif // ASCENDPREC_REPORT_REPORT_H
