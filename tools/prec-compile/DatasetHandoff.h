//===- DatasetHandoff.h - prec-compile --data runs in the Python package --===//
//
// A plan judged on a dataset (--data) is the Python package's work
// (python/ascendprec/_cli.py): streaming readers of numpy and ONNX sample
// layouts, statistics with intervals, Dask for clusters. prec-compile
// checks the command line as for any run, then replaces itself with that
// module on the same arguments, so both front ends give the same figures.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_TOOLS_PREC_COMPILE_DATASETHANDOFF_H
#define ASCENDPREC_TOOLS_PREC_COMPILE_DATASETHANDOFF_H

#include <string>
#include <vector>

namespace ascendprec::driver {

/// The flags only a --data run takes.
const std::vector<std::string> &datasetFlags();

/// Runs `python3 -m ascendprec._cli ARGS` with the package found next to
/// this executable (the build tree's python/, or an install's
/// lib/python3.X/dist-packages). Returns only on failure, with `error`
/// saying why.
void handOffToDatasetRun(const std::vector<std::string> &args, std::string &error);

} // namespace ascendprec::driver

#endif // ASCENDPREC_TOOLS_PREC_COMPILE_DATASETHANDOFF_H
