//===- CannPassOptions.h - CANN's options as pass options (OP-1) ----------===//
//
// prec-plan-precision and prec-precision-pipeline take CANN's options under
// CANN's names (`soc_version=Ascend910 precision_mode=force_fp16`). They are
// declared here from the option table (policy::optionSpecs(), the entries
// marked passOption), not one by one in Passes.td, so that adding an option
// is one entry in lib/Policy/OptionTable.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_CANNPASSOPTIONS_H
#define ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_CANNPASSOPTIONS_H

#include "AscendPrec/Support/MLIR.h"
#include "mlir/Pass/Pass.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ascendprec::ascend {

/// Name/value pairs of CANN options, in the option table's order.
using CannOptionValues = std::vector<std::pair<std::string, std::string>>;

class CannPassOptions {
public:
  /// Declares the options on a pass.
  explicit CannPassOptions(Pass &pass);
  /// Declares the options on a pipeline's options.
  explicit CannPassOptions(mlir::detail::PassOptions &pipelineOptions);

  /// The options that were given a value.
  CannOptionValues values() const;
  /// Sets the options in `values`; false (and nothing set) when one of the
  /// names is not a pass option of the table.
  bool assign(const CannOptionValues &values);

private:
  using StringOption = mlir::detail::PassOptions::Option<std::string>;
  std::vector<std::unique_ptr<StringOption>> options;
};

} // namespace ascendprec::ascend

#endif // ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_CANNPASSOPTIONS_H
