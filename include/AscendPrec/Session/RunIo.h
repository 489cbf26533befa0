//===- RunIo.h - a run's inputs and outputs as ONNX TensorProto files -----===//
//
// --run=DIR reads the ONNX backend-test layout: input_<i>.pb (one
// TensorProto per graph input, in order) and, when present, output_<i>.pb
// (the expected outputs). Without DIR, inputs are seeded random values.
// The planned model's outputs are written back as TensorProto files named
// after the model's outputs.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SESSION_RUNIO_H
#define ASCENDPREC_SESSION_RUNIO_H

#include "AscendPrec/Runtime/HostTensor.h"

#include <optional>
#include <string>
#include <vector>

namespace ascendprec::session {

struct NamedTensor {
  std::string name;
  runtime::HostTensor tensor;
};

/// Reads one TensorProto file; nullopt with `error` (naming the file) when
/// it is not one or holds an unsupported dtype.
std::optional<NamedTensor> readTensorFile(const std::string &path, std::string &error);

/// Writes `tensor` as a TensorProto named `name` (raw_data, little endian).
bool writeTensorFile(const std::string &path, const std::string &name,
                     const runtime::HostTensor &tensor, std::string &error);

/// `folder`/input_<i>.pb for i in [0, count), and the output_<i>.pb files
/// that exist (in order, stopping at the first missing one).
/// `optional[i]` (when given): input i has a default value, and its file
/// may be absent (`inputs[i]` is then nullopt).
struct RunFolder {
  std::vector<std::optional<NamedTensor>> inputs;
  std::vector<NamedTensor> expected;
};
std::optional<RunFolder> readRunFolder(const std::string &folder, size_t inputCount,
                                       std::string &error,
                                       const std::vector<bool> &optional = {});

/// The integer values of `folder`/input_<i>.pb (in order, up to the first
/// missing file) that are small enough to decide shapes (at most 64
/// elements); nullopt for the others, and for files that do not read (the
/// run reports those later).
std::vector<std::optional<std::vector<int64_t>>> readShapeDecidingInputs(const std::string &folder);

/// --run-range: the values one input is drawn from, [low, high).
struct InputRange {
  std::string input;
  double low = 0, high = 0;
};

/// Parses --run-range="NAME:LOW,HIGH;NAME:LOW,HIGH" (a name may hold
/// colons: the last one separates it); nullopt with `error` set.
std::optional<std::vector<InputRange>> parseInputRanges(const std::string &text,
                                                        std::string &error);

/// Seeded random inputs: floats uniform in [-1, 1), integers in [0, 10),
/// booleans 0/1, or uniform in `range` (integers: whole numbers in
/// [low, high)); the generator is std::mt19937_64 seeded with `state` (the
/// run's seed, 0 by default), one stream over the inputs in order (the
/// same values on every machine).
runtime::HostTensor randomTensor(runtime::ElementType type, const std::vector<int64_t> &shape,
                                 uint64_t &state, const InputRange *range = nullptr);

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_RUNIO_H
