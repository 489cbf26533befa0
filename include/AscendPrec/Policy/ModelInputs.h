//===- ModelInputs.h - ATC's input and output options, parsed -------------===//
//
// `--input_shape`, `--dynamic_batch_size`, `--dynamic_image_size`,
// `--dynamic_dims`, `--input_fp16_nodes` and `--output_type` in ATC's
// syntax, validated as ATC validates them (docs/reference/atc-options.md).
// Plain C++; the importer and the driver apply the result.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_MODELINPUTS_H
#define ASCENDPREC_POLICY_MODELINPUTS_H

#include "AscendPrec/Policy/DType.h"
#include "AscendPrec/Policy/Diagnostics.h"
#include "AscendPrec/Policy/Options.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ascendprec::policy {

/// One `name:d1,d2,...` of --input_shape; -1 is a dynamic dimension.
struct InputShape {
  std::string name;
  std::vector<int64_t> dims;
};

/// One output dtype of --output_type: for every output (`node` empty) or for
/// output `index` of node `node`.
struct OutputType {
  std::string node;
  int index = -1;
  DType dtype;
};

/// What the ATC options ask of the model's inputs and outputs.
struct ModelInputOptions {
  std::vector<InputShape> shapes;
  /// "batch", "image" or "dims" when a dynamic option is given; its gears.
  std::string dynamicKind;
  std::vector<std::vector<int64_t>> gears;
  std::vector<std::string> fp16Inputs;
  std::vector<OutputType> outputTypes;
  /// Where each option was given (command line or session-file line).
  SourceLoc shapeLoc, fp16Loc, outputTypeLoc;
};

/// Parses and cross-checks the options (OP-1 errors at the option's
/// location). Returns nothing after an error.
std::optional<ModelInputOptions> parseModelInputOptions(const SessionOptions &options,
                                                        DiagnosticList &diags);

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_MODELINPUTS_H
