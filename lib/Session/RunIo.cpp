//===- RunIo.cpp - TensorProto files and random inputs --------------------===//

#include "AscendPrec/Session/RunIo.h"
#include "AscendPrec/Session/OutputFolder.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include "AscendPrec/Policy/InputFile.h"

#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace ascendprec;
using namespace ascendprec::session;
using runtime::ElementType;
using runtime::HostTensor;
namespace fs = std::filesystem;

namespace {

std::optional<ElementType> elementTypeOf(int32_t dataType) {
  switch (dataType) {
  case onnx::TensorProto::FLOAT: return ElementType::F32;
  case onnx::TensorProto::FLOAT16: return ElementType::F16;
  case onnx::TensorProto::BFLOAT16: return ElementType::BF16;
  case onnx::TensorProto::DOUBLE: return ElementType::F64;
  case onnx::TensorProto::BOOL: return ElementType::I1;
  case onnx::TensorProto::INT8: return ElementType::I8;
  case onnx::TensorProto::INT16: return ElementType::I16;
  case onnx::TensorProto::INT32: return ElementType::I32;
  case onnx::TensorProto::INT64: return ElementType::I64;
  case onnx::TensorProto::UINT8: return ElementType::U8;
  case onnx::TensorProto::UINT16: return ElementType::U16;
  case onnx::TensorProto::UINT32: return ElementType::U32;
  case onnx::TensorProto::UINT64: return ElementType::U64;
  default: return std::nullopt;
  }
}

int32_t dataTypeOf(ElementType type) {
  switch (type) {
  case ElementType::F32: return onnx::TensorProto::FLOAT;
  case ElementType::F16: return onnx::TensorProto::FLOAT16;
  case ElementType::BF16: return onnx::TensorProto::BFLOAT16;
  case ElementType::F64: return onnx::TensorProto::DOUBLE;
  case ElementType::I1: return onnx::TensorProto::BOOL;
  case ElementType::I8: return onnx::TensorProto::INT8;
  case ElementType::I16: return onnx::TensorProto::INT16;
  case ElementType::I32: return onnx::TensorProto::INT32;
  case ElementType::I64: return onnx::TensorProto::INT64;
  case ElementType::U8: return onnx::TensorProto::UINT8;
  case ElementType::U16: return onnx::TensorProto::UINT16;
  case ElementType::U32: return onnx::TensorProto::UINT32;
  case ElementType::U64: return onnx::TensorProto::UINT64;
  }
  return onnx::TensorProto::UNDEFINED;
}

} // namespace

std::optional<NamedTensor> session::readTensorFile(const std::string &path, std::string &error) {
  std::string bytes, why;
  std::optional<policy::InputFile> file = policy::InputFile::open(path, why);
  if (!file || !file->read(bytes, why)) {
    error = "cannot read '" + path + "': " + why;
    return std::nullopt;
  }
  onnx::TensorProto proto;
  if (!proto.ParseFromString(bytes)) {
    error = path + ": not an ONNX TensorProto file";
    return std::nullopt;
  }
  std::optional<ElementType> type = elementTypeOf(proto.data_type());
  if (!type) {
    error = path + ": tensor '" + proto.name() + "' has ONNX data type " +
            std::to_string(proto.data_type()) + ", which a run does not take";
    return std::nullopt;
  }
  std::vector<int64_t> shape(proto.dims().begin(), proto.dims().end());
  for (int64_t dim : shape)
    if (dim < 0) {
      error = path + ": tensor '" + proto.name() + "' has a negative dimension";
      return std::nullopt;
    }
  // The values the file holds, counted before anything is allocated: a
  // file that is not a TensorProto (a sequence, an optional) can parse as
  // one with absurd dimensions.
  int64_t count = 1;
  bool overflow = false;
  for (int64_t dim : shape)
    overflow |= llvm::MulOverflow(count, dim, count);
  size_t held = proto.has_raw_data()             ? proto.raw_data().size() / runtime::elementBytes(*type)
                : *type == ElementType::F32      ? proto.float_data_size()
                : *type == ElementType::F64      ? proto.double_data_size()
                : *type == ElementType::I64      ? proto.int64_data_size()
                : *type == ElementType::U32 || *type == ElementType::U64 ? proto.uint64_data_size()
                                                                         : proto.int32_data_size();
  if (overflow || static_cast<uint64_t>(count) != held) {
    error = path + ": tensor '" + proto.name() + "' holds " + std::to_string(held) +
            " values for a shape of " + (overflow ? "more than 2^63" : std::to_string(count)) +
            " elements";
    return std::nullopt;
  }
  HostTensor tensor(*type, shape);
  size_t bytesNeeded = tensor.byteSize();
  auto wrongCount = [&](size_t have) {
    error = path + ": tensor '" + proto.name() + "' holds " + std::to_string(have) +
            " values for a shape of " + std::to_string(tensor.numElements()) + " elements";
    return std::nullopt;
  };
  if (proto.has_raw_data()) {
    if (proto.raw_data().size() != bytesNeeded)
      return wrongCount(proto.raw_data().size() / runtime::elementBytes(*type));
    std::memcpy(tensor.data(), proto.raw_data().data(), bytesNeeded);
  } else if (*type == ElementType::F32) {
    if (static_cast<int64_t>(proto.float_data_size()) != tensor.numElements())
      return wrongCount(proto.float_data_size());
    std::memcpy(tensor.data(), proto.float_data().data(), bytesNeeded);
  } else if (*type == ElementType::F64) {
    if (static_cast<int64_t>(proto.double_data_size()) != tensor.numElements())
      return wrongCount(proto.double_data_size());
    std::memcpy(tensor.data(), proto.double_data().data(), bytesNeeded);
  } else if (*type == ElementType::I64) {
    if (static_cast<int64_t>(proto.int64_data_size()) != tensor.numElements())
      return wrongCount(proto.int64_data_size());
    std::memcpy(tensor.data(), proto.int64_data().data(), bytesNeeded);
  } else if (*type == ElementType::U32 || *type == ElementType::U64) {
    if (static_cast<int64_t>(proto.uint64_data_size()) != tensor.numElements())
      return wrongCount(proto.uint64_data_size());
    for (int64_t i = 0; i < tensor.numElements(); ++i)
      tensor.setInt(i, static_cast<int64_t>(proto.uint64_data(i)));
  } else {
    // int32_data carries every narrower type, fp16/bf16 as their bits.
    if (static_cast<int64_t>(proto.int32_data_size()) != tensor.numElements())
      return wrongCount(proto.int32_data_size());
    size_t width = runtime::elementBytes(*type);
    for (int64_t i = 0; i < tensor.numElements(); ++i) {
      int32_t value = proto.int32_data(i);
      std::memcpy(tensor.data() + i * width, &value, width); // little endian
    }
  }
  return NamedTensor{proto.name(), tensor};
}

bool session::writeTensorFile(const std::string &path, const std::string &name,
                             const HostTensor &tensor, std::string &error) {
  onnx::TensorProto proto;
  proto.set_name(name);
  proto.set_data_type(dataTypeOf(tensor.type()));
  for (int64_t dim : tensor.shape())
    proto.add_dims(dim);
  proto.set_raw_data(reinterpret_cast<const char *>(tensor.data()), tensor.byteSize());
  std::string bytes;
  if (!proto.SerializeToString(&bytes)) {
    error = "cannot write " + path + ": the tensor does not serialize (over 2 GiB?)";
    return false;
  }
  return writeTextFile(path, bytes, error);
}

std::optional<RunFolder> session::readRunFolder(const std::string &folder, size_t inputCount,
                                               std::string &error,
                                               const std::vector<bool> &optional) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    error = "--run=" + folder + ": not a folder (it should hold input_0.pb, ... in the ONNX "
            "backend-test layout)";
    return std::nullopt;
  }
  RunFolder run;
  for (size_t i = 0; i < inputCount; ++i) {
    std::string path = (fs::path(folder) / ("input_" + std::to_string(i) + ".pb")).string();
    if (!fs::exists(path, ec) && i < optional.size() && optional[i]) {
      run.inputs.push_back(std::nullopt); // the input's default
      continue;
    }
    if (!fs::exists(path, ec)) {
      error = "--run=" + folder + ": missing input_" + std::to_string(i) + ".pb (the model takes " +
              std::to_string(inputCount) + (inputCount == 1 ? " input" : " inputs") + ")";
      return std::nullopt;
    }
    std::optional<NamedTensor> tensor = readTensorFile(path, error);
    if (!tensor)
      return std::nullopt;
    run.inputs.push_back(std::move(*tensor));
  }
  // Every input_<i>.pb / output_<i>.pb must be one the run reads: a file
  // past the model's inputs, or an output with a gap before it, is refused.
  size_t outputs = 0;
  while (fs::exists(fs::path(folder) / ("output_" + std::to_string(outputs) + ".pb"), ec))
    ++outputs;
  for (const fs::directory_entry &entry : fs::directory_iterator(folder, ec)) {
    std::string name = entry.path().filename().string();
    for (const char *prefix : {"input_", "output_"}) {
      size_t length = std::strlen(prefix);
      if (name.compare(0, length, prefix) != 0 || name.size() <= length + 3 ||
          name.compare(name.size() - 3, 3, ".pb") != 0)
        continue;
      std::string digits = name.substr(length, name.size() - length - 3);
      if (digits.find_first_not_of("0123456789") != std::string::npos)
        continue;
      size_t index = std::stoul(digits);
      bool isInput = std::strcmp(prefix, "input_") == 0;
      if (isInput && index >= inputCount) {
        error = "--run=" + folder + ": holds " + name + ", but the model takes " +
                std::to_string(inputCount) + (inputCount == 1 ? " input" : " inputs");
        return std::nullopt;
      }
      if (!isInput && index >= outputs) {
        error = "--run=" + folder + ": holds " + name + " but not output_" +
                std::to_string(outputs) + ".pb (expected outputs are numbered from 0)";
        return std::nullopt;
      }
    }
  }
  for (size_t i = 0;; ++i) {
    std::string path = (fs::path(folder) / ("output_" + std::to_string(i) + ".pb")).string();
    if (!fs::exists(path, ec))
      break;
    std::optional<NamedTensor> tensor = readTensorFile(path, error);
    if (!tensor)
      return std::nullopt;
    run.expected.push_back(std::move(*tensor));
  }
  return run;
}

std::optional<std::vector<InputRange>> session::parseInputRanges(const std::string &text,
                                                                std::string &error) {
  std::vector<InputRange> ranges;
  llvm::SmallVector<llvm::StringRef> entries;
  llvm::StringRef(text).split(entries, ';', -1, /*KeepEmpty=*/false);
  auto number = [](llvm::StringRef word, double &value) {
    word = word.trim();
    std::string copy = word.str();
    char *end = nullptr;
    value = std::strtod(copy.c_str(), &end);
    return !copy.empty() && *end == '\0' && std::isfinite(value);
  };
  for (llvm::StringRef entry : entries) {
    size_t colon = entry.rfind(':');
    InputRange range;
    auto [low, high] = colon == llvm::StringRef::npos ? std::pair<llvm::StringRef, llvm::StringRef>()
                                                      : entry.substr(colon + 1).split(',');
    if (colon == llvm::StringRef::npos || colon == 0 || !number(low, range.low) ||
        !number(high, range.high)) {
      error = "--run-range: '" + entry.str() +
              "' is not NAME:LOW,HIGH (e.g. \"ids:0,30522;x:0,255\")";
      return std::nullopt;
    }
    range.input = entry.substr(0, colon).trim().str();
    if (!(range.low < range.high)) {
      error = "--run-range: input '" + range.input + "' needs LOW < HIGH, not " +
              low.trim().str() + "," + high.trim().str();
      return std::nullopt;
    }
    for (const InputRange &earlier : ranges)
      if (earlier.input == range.input) {
        error = "--run-range names input '" + range.input + "' twice";
        return std::nullopt;
      }
    ranges.push_back(range);
  }
  if (ranges.empty()) {
    error = "--run-range names no input: give NAME:LOW,HIGH (e.g. \"ids:0,30522;x:0,255\")";
    return std::nullopt;
  }
  return ranges;
}

HostTensor session::randomTensor(ElementType type, const std::vector<int64_t> &shape,
                                uint64_t &state, const InputRange *range) {
  HostTensor tensor(type, shape);
  std::mt19937_64 generator(state);
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    uint64_t bits = generator();
    // 53 random bits as a double in [0, 1): the same on every platform,
    // unlike std::uniform_real_distribution.
    double unit = static_cast<double>(bits >> 11) * 0x1.0p-53;
    if (range && runtime::isFloat(type))
      tensor.set(i, range->low + unit * (range->high - range->low));
    else if (range) {
      // Whole numbers in [low, high): the first one plus a uniform offset.
      double first = std::ceil(range->low), end = std::ceil(range->high);
      tensor.setInt(i, static_cast<int64_t>(first + std::floor(unit * (end - first))));
    }
    else if (runtime::isFloat(type))
      tensor.set(i, unit * 2.0 - 1.0);
    else if (type == ElementType::I1)
      tensor.setInt(i, static_cast<int64_t>(bits >> 63));
    else
      tensor.setInt(i, static_cast<int64_t>(unit * 10.0));
  }
  state = generator();
  return tensor;
}

std::vector<std::optional<std::vector<int64_t>>>
session::readShapeDecidingInputs(const std::string &folder) {
  std::vector<std::optional<std::vector<int64_t>>> values;
  for (size_t i = 0;; ++i) {
    std::string path = (fs::path(folder) / ("input_" + std::to_string(i) + ".pb")).string();
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
      break;
    // 64 integers take well under 4 KiB: larger files (images, audio) are
    // data, read once, by the run itself.
    if (fs::file_size(path, ec) > 4096 || ec) {
      values.emplace_back();
      continue;
    }
    std::string ignored;
    std::optional<NamedTensor> file = readTensorFile(path, ignored);
    if (!file || runtime::isFloat(file->tensor.type()) || file->tensor.numElements() > 64) {
      values.emplace_back();
      continue;
    }
    std::vector<int64_t> ints;
    for (int64_t k = 0; k < file->tensor.numElements(); ++k)
      ints.push_back(file->tensor.getInt(k));
    values.push_back(std::move(ints));
  }
  return values;
}
