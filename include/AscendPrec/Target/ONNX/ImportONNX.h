//===- ImportONNX.h - ONNX models into the ascend dialect -----------------===//

#ifndef ASCENDPREC_TARGET_ONNX_IMPORTONNX_H
#define ASCENDPREC_TARGET_ONNX_IMPORTONNX_H

#include "AscendPrec/Policy/AtcRefusals.h"
#include "AscendPrec/Support/MLIR.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <vector>
#include <string>

namespace ascendprec {

/// What an import produced, for tools and the test-data sweep.
struct ONNXImportStats {
  unsigned nodes = 0;     ///< ONNX nodes read
  unsigned dedicated = 0; ///< nodes that became dedicated ascend ops
  unsigned generic = 0;   ///< nodes that became ascend.generic
  unsigned folded = 0;    ///< shape computations evaluated at import
  /// Op types that became ascend.generic, with their counts.
  std::map<std::string, unsigned> genericOpTypes;
  /// Whether the model got as far as ATC's pre-check (its checker passed).
  bool atcChecked = false;
  /// The parser keys no CANN plugin registers, with their nodes: ATC
  /// refuses the model with E13010 (policy/AtcRefusals.h).
  std::vector<policy::AtcRefusal> atcRefusals;
};

/// What the user says about the model's inputs (ATC's --input_shape).
struct ONNXImportOptions {
  /// Input name -> dims (-1: dynamic), replacing the model's own input
  /// shape before shape inference, so that static shapes propagate.
  std::vector<std::pair<std::string, std::vector<int64_t>>> inputShapes;
  /// Integer values a run feeds the graph inputs (by position among the
  /// inputs that are not initializers; prec-compile --run=DIR). An op whose
  /// result shape depends on such an input (ReduceX's axes, Slice's starts,
  /// ends, axes and steps, Pad's pads, Tile's repeats) is planned for that
  /// value instead of staying generic, as CANN's dynamic-shape mode reads it
  /// when the graph runs; a warning names each use.
  std::vector<std::optional<std::vector<int64_t>>> runInputValues;
  /// A training graph (graph_run_mode=1): NegativeLogLikelihoodLoss and
  /// SoftmaxCrossEntropyLoss become CANN's NLLLoss (after LogSoftmaxV2), as
  /// the training adapters build them, instead of their ONNX function bodies.
  bool trainingGraph = false;
  /// --atc-refusals=error: a node ATC's ONNX parser has no plugin for
  /// (E13010) is an error that stops the import, instead of a warning.
  bool atcRefusalsAreErrors = false;
};

/// Imports the ONNX model in `bytes` (read from `path`, used in locations
/// and messages). Reports errors through `context`'s diagnostics and returns
/// null for a malformed model; never crashes on bad input. ONNX's checker
/// and shape inference run in child processes (ONNXValidation.cpp); the
/// parsed protobuf of a model of 10k+ nodes is freed on a detached thread
/// after the import returns.
OwningOpRef<ModuleOp> importONNX(llvm::StringRef bytes, llvm::StringRef path,
                                 MLIRContext *context,
                                 ONNXImportStats *stats = nullptr,
                                 const ONNXImportOptions &options = {});

/// Reads and imports the file at `path`. Graph inputs keep their model
/// names as the function argument attribute `ascend.name`.
OwningOpRef<ModuleOp> importONNXFile(llvm::StringRef path, MLIRContext *context,
                                     ONNXImportStats *stats = nullptr,
                                     const ONNXImportOptions &options = {});

/// Registers `--import-onnx` with mlir-translate-style tools.
void registerImportONNXTranslation();

} // namespace ascendprec

#endif // ASCENDPREC_TARGET_ONNX_IMPORTONNX_H
