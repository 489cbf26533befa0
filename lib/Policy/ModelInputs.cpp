//===- ModelInputs.cpp - ATC's input and output options, parsed -----------===//
//
// Follows ATC's documented syntax and checks: input_shape entries are
// `name:dims` separated by `;` (a name may itself contain `:`; the last one
// separates), dims are integers >= -1; the three dynamic options are
// exclusive, need input_shape with -1 where they vary (batch: the first
// dim; image: H and W of NCHW; dims: any), and take 2 to 100 gears.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Policy/ModelInputs.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace ascendprec::policy {

namespace {

constexpr size_t kMinGears = 2, kMaxGears = 100;

std::vector<std::string> split(const std::string &text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string::npos ? std::string::npos
                                                                : at - start));
    if (at == std::string::npos)
      return parts;
    start = at + 1;
  }
}

std::optional<int64_t> parseInt(const std::string &text) {
  int64_t value;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty())
    return std::nullopt;
  return value;
}

/// "a,b,c" of integers >= `minimum`.
std::optional<std::vector<int64_t>> parseInts(const std::string &text, int64_t minimum) {
  std::vector<int64_t> values;
  for (const std::string &part : split(text, ',')) {
    std::optional<int64_t> value = parseInt(part);
    if (!value || *value < minimum)
      return std::nullopt;
    values.push_back(*value);
  }
  return values;
}

bool parseShapes(const OptionValue &option, ModelInputOptions &out, DiagnosticList &diags) {
  std::set<std::string> seen;
  for (const std::string &entry : split(option.text, ';')) {
    if (entry.empty())
      continue; // a trailing ';'
    size_t colon = entry.rfind(':');
    std::optional<std::vector<int64_t>> dims;
    if (colon != std::string::npos && colon > 0)
      dims = colon + 1 == entry.size() ? std::vector<int64_t>{} // a scalar
                                       : parseInts(entry.substr(colon + 1), -1);
    if (!dims) {
      diags.error(option.loc,
                  "--input_shape: '" + escapeForDisplay(entry) +
                      "' is not 'name:d1,d2,...' with integer dims (-1 for a dynamic "
                      "one); e.g. --input_shape=\"x:1,3,224,224;y:1,10\"",
                  "OP-1");
      return false;
    }
    std::string name = entry.substr(0, colon);
    if (!seen.insert(name).second) {
      diags.error(option.loc, "--input_shape names '" + escapeForDisplay(name) + "' twice",
                  "OP-1");
      return false;
    }
    out.shapes.push_back({name, *dims});
  }
  return true;
}

/// Gears of a dynamic option: `;`-separated groups of `size` positive ints
/// (`size` 0: any count, all groups alike).
bool parseGears(const OptionValue &option, const std::string &name, char groupSeparator,
                size_t size, ModelInputOptions &out, DiagnosticList &diags) {
  std::vector<std::string> groups =
      groupSeparator ? split(option.text, groupSeparator) : split(option.text, ',');
  for (std::string &group : groups) {
    std::optional<std::vector<int64_t>> values = parseInts(group, 1);
    if (!values || (size && values->size() != size)) {
      diags.error(option.loc,
                  "--" + name + ": '" + escapeForDisplay(group) + "' is not " +
                      (size == 1 ? "a positive integer"
                                 : std::to_string(size) + " positive integers"),
                  "OP-1");
      return false;
    }
    out.gears.push_back(*values);
  }
  if (groups.size() < kMinGears || groups.size() > kMaxGears) {
    diags.error(option.loc,
                "--" + name + " takes " + std::to_string(kMinGears) + " to " +
                    std::to_string(kMaxGears) + " gears; got " +
                    std::to_string(groups.size()),
                "OP-1");
    return false;
  }
  std::vector<std::vector<int64_t>> sorted = out.gears;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    diags.error(option.loc, "--" + name + " lists a gear twice", "OP-1");
    return false;
  }
  return true;
}

/// ATC's check that input_shape has -1 exactly where the option varies.
bool checkDynamicDims(const OptionValue &option, const std::string &name,
                      ModelInputOptions &out, DiagnosticList &diags) {
  size_t dynamic = 0;
  for (const InputShape &shape : out.shapes)
    dynamic += std::count(shape.dims.begin(), shape.dims.end(), -1);
  auto fail = [&](const std::string &why) {
    diags.error(option.loc, "--" + name + " " + why, "OP-1");
    return false;
  };
  if (out.shapes.empty())
    return fail("needs --input_shape with -1 for the dimensions it varies");
  if (dynamic == 0)
    return fail("needs -1 in --input_shape for the dimensions it varies");
  if (out.dynamicKind == "batch") {
    for (const InputShape &shape : out.shapes)
      for (size_t i = 1; i < shape.dims.size(); ++i)
        if (shape.dims[i] == -1)
          return fail("varies the batch only; --input_shape input '" +
                      escapeForDisplay(shape.name) + "' has -1 at dimension " +
                      std::to_string(i));
  } else if (out.dynamicKind == "image") {
    for (const InputShape &shape : out.shapes) {
      size_t count = std::count(shape.dims.begin(), shape.dims.end(), -1);
      if (count && (shape.dims.size() != 4 || shape.dims[2] != -1 || shape.dims[3] != -1 ||
                    count != 2))
        return fail("varies H and W of NCHW inputs; --input_shape input '" +
                    escapeForDisplay(shape.name) + "' must have -1 at dimensions 2 and 3 only");
    }
  } else if (out.gears.front().size() != dynamic) {
    return fail("gives " + std::to_string(out.gears.front().size()) +
                " values per gear; --input_shape has " + std::to_string(dynamic) +
                " dimensions of -1");
  }
  return true;
}

bool parseOutputTypes(const OptionValue &option, ModelInputOptions &out,
                      DiagnosticList &diags) {
  auto dtypeOf = [](const std::string &name) -> std::optional<DType> {
    if (name == "FP32")
      return DType::Float32;
    if (name == "FP16")
      return DType::Float16;
    if (name == "UINT8")
      return DType::UInt8;
    return std::nullopt;
  };
  if (std::optional<DType> all = dtypeOf(option.text)) {
    out.outputTypes.push_back({"", -1, *all});
    return true;
  }
  for (const std::string &entry : split(option.text, ';')) {
    if (entry.empty())
      continue;
    size_t last = entry.rfind(':');
    size_t middle = last == std::string::npos || last == 0 ? std::string::npos
                                                           : entry.rfind(':', last - 1);
    std::optional<int64_t> index =
        middle == std::string::npos ? std::nullopt
                                    : parseInt(entry.substr(middle + 1, last - middle - 1));
    std::optional<DType> dtype =
        last == std::string::npos ? std::nullopt : dtypeOf(entry.substr(last + 1));
    if (middle == std::string::npos || middle == 0 || !index || *index < 0 || !dtype) {
      diags.error(option.loc,
                  "--output_type: '" + escapeForDisplay(entry) +
                      "' is not FP32, FP16, UINT8 or 'node:index:FP32|FP16|UINT8'",
                  "OP-1");
      return false;
    }
    out.outputTypes.push_back({entry.substr(0, middle), static_cast<int>(*index), *dtype});
  }
  return true;
}

} // namespace

std::optional<ModelInputOptions> parseModelInputOptions(const SessionOptions &options,
                                                        DiagnosticList &diags) {
  ModelInputOptions out;
  size_t errorsBefore = diags.errorCount();
  if (const OptionValue *shape = options.get("input_shape")) {
    out.shapeLoc = shape->loc;
    parseShapes(*shape, out, diags);
  }
  struct Dynamic {
    const char *option, *kind;
    char groupSeparator;
    size_t size;
  };
  const char *chosen = nullptr;
  for (const Dynamic &d : {Dynamic{"dynamic_batch_size", "batch", 0, 1},
                           Dynamic{"dynamic_image_size", "image", ';', 2},
                           Dynamic{"dynamic_dims", "dims", ';', 0}}) {
    const OptionValue *value = options.get(d.option);
    if (!value)
      continue;
    if (chosen) {
      diags.error(value->loc,
                  "--" + std::string(d.option) + " and --" + chosen +
                      " cannot be combined; ATC takes one dynamic option",
                  "OP-1");
      break;
    }
    chosen = d.option;
    if (diags.errorCount() != errorsBefore ||
        !parseGears(*value, d.option, d.groupSeparator, d.size, out, diags))
      break;
    if (d.size == 0 && std::any_of(out.gears.begin(), out.gears.end(), [&](const auto &g) {
          return g.size() != out.gears.front().size();
        })) {
      diags.error(value->loc, "--dynamic_dims gears differ in length", "OP-1");
      break;
    }
    out.dynamicKind = d.kind;
    checkDynamicDims(*value, d.option, out, diags);
  }
  if (const OptionValue *fp16 = options.get("input_fp16_nodes")) {
    out.fp16Loc = fp16->loc;
    for (const std::string &name : split(fp16->text, ';'))
      if (!name.empty())
        out.fp16Inputs.push_back(name);
  }
  if (const OptionValue *outputType = options.get("output_type")) {
    out.outputTypeLoc = outputType->loc;
    parseOutputTypes(*outputType, out, diags);
  }
  if (diags.errorCount() != errorsBefore)
    return std::nullopt;
  return out;
}

} // namespace ascendprec::policy
