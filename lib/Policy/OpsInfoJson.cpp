//===- OpsInfoJson.cpp - CANN ops-info JSON (OP-4, ML-1) ------------------===//

#include "AscendPrec/Policy/Json.h"
#include "AscendPrec/Policy/OpLibrary.h"

#include <algorithm>

namespace ascendprec::policy {

std::string KernelRow::str() const {
  auto list = [](const std::vector<DType> &dtypes) {
    std::string text = "(";
    for (size_t i = 0; i < dtypes.size(); ++i)
      text += (i ? ", " : "") + dtypeName(dtypes[i]);
    return text + ")";
  };
  return list(inputs) + " -> " + list(outputs);
}

ListColor OpInfo::builtinColor() const {
  if (!precisionReduce)
    return ListColor::Gray;
  return *precisionReduce ? ListColor::White : ListColor::Black;
}

const OpInfo *OpLibrary::find(const std::string &opType) const {
  auto it = ops.find(opType);
  return it == ops.end() ? nullptr : &it->second;
}

namespace {

/// "input3" -> 3 when `key` is `prefix` followed by digits.
std::optional<unsigned> paramIndex(const std::string &key,
                                   const std::string &prefix) {
  if (key.size() <= prefix.size() || key.compare(0, prefix.size(), prefix))
    return std::nullopt;
  unsigned index = 0;
  for (size_t i = prefix.size(); i < key.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(key[i])) || index > 10000)
      return std::nullopt;
    index = index * 10 + (key[i] - '0');
  }
  return index;
}

struct ParsedParam {
  KernelParam param;
  std::vector<DType> dtypes;
  SourceLoc loc;
};

/// Reads one `inputN`/`outputN` object: its dtype list (`dtype` for AI Core,
/// `type` for AI CPU), name and paramType.
bool parseParam(const std::string &opType, const std::string &key,
                const JsonValue &value, bool aicpu, ParsedParam &out,
                DiagnosticList &diags) {
  out.loc = value.loc;
  if (!value.isObject()) {
    diags.error(value.loc, opType + "." + key + " must be an object, found " +
                               value.kindName(),
                "OP-4");
    return false;
  }
  const char *listKey = aicpu ? "type" : "dtype";
  const JsonValue *list = value.find(listKey);
  if (!list || !list->isString()) {
    diags.error(list ? list->loc : value.loc,
                opType + "." + key + " needs a \"" + listKey +
                    "\" string of comma-separated dtypes",
                "OP-4");
    return false;
  }
  if (const JsonValue *name = value.find("name"); name && name->isString())
    out.param.name = name->string;
  if (const JsonValue *type = value.find("paramType"); type && type->isString())
    out.param.paramType = type->string;
  size_t start = 0;
  const std::string &text = list->string;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string token = text.substr(
        start, comma == std::string::npos ? std::string::npos : comma - start);
    token.erase(0, token.find_first_not_of(" \t"));
    token.erase(token.find_last_not_of(" \t") + 1);
    std::optional<DType> dtype = parseLibraryDType(token);
    if (!dtype) {
      diags.error(list->loc, opType + "." + key + " lists the unknown dtype '" +
                                 token + "'",
                  "OP-4");
      return false;
    }
    out.dtypes.push_back(*dtype);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return true;
}

/// Collects inputN/outputN in index order; indices must run 0..n-1.
bool collectParams(const std::string &opType, const JsonValue &op,
                   const std::string &prefix, bool aicpu,
                   std::vector<ParsedParam> &params, DiagnosticList &diags) {
  std::map<unsigned, const JsonValue *> byIndex;
  std::map<unsigned, std::string> keys;
  for (const auto &[key, value] : op.object)
    if (std::optional<unsigned> index = paramIndex(key, prefix)) {
      byIndex[*index] = &value;
      keys[*index] = key;
    }
  unsigned expected = 0;
  for (const auto &[index, value] : byIndex) {
    if (index != expected) {
      diags.error(value->loc, opType + " has " + keys[index] + " but no " +
                                  prefix + std::to_string(expected) +
                                  "; indices must start at 0 without gaps",
                  "OP-4");
      return false;
    }
    ++expected;
    ParsedParam param;
    if (!parseParam(opType, keys[index], *value, aicpu, param, diags))
      return false;
    params.push_back(std::move(param));
  }
  return true;
}

/// AI Core rows are positional: row i takes the i-th dtype of every input
/// and output, so every list must be equally long. AI CPU lists follow the
/// same convention here.
bool buildKernel(const std::string &opType, const JsonValue &op, bool aicpu,
                 KernelInfo &kernel, DiagnosticList &diags) {
  std::vector<ParsedParam> inputs, outputs;
  if (!collectParams(opType, op, "input", aicpu, inputs, diags) ||
      !collectParams(opType, op, "output", aicpu, outputs, diags))
    return false;
  if (outputs.empty()) {
    diags.error(op.loc, opType + " declares no output0", "OP-4");
    return false;
  }
  size_t rows = outputs.front().dtypes.size();
  for (const auto *group : {&inputs, &outputs})
    for (const ParsedParam &param : *group)
      if (param.dtypes.size() != rows) {
        diags.error(param.loc,
                    opType + " lists " + std::to_string(param.dtypes.size()) +
                        " dtypes here but " + std::to_string(rows) +
                        " for output0; every input and output needs one "
                        "dtype per kernel row",
                    "OP-4");
        return false;
      }
  kernel.loc = op.loc;
  for (const ParsedParam &param : inputs)
    kernel.inputs.push_back(param.param);
  for (const ParsedParam &param : outputs)
    kernel.outputs.push_back(param.param);
  for (size_t row = 0; row < rows; ++row) {
    KernelRow kernelRow;
    for (const ParsedParam &param : inputs)
      kernelRow.inputs.push_back(param.dtypes[row]);
    for (const ParsedParam &param : outputs)
      kernelRow.outputs.push_back(param.dtypes[row]);
    if (std::find(kernel.rows.begin(), kernel.rows.end(), kernelRow) ==
        kernel.rows.end())
      kernel.rows.push_back(std::move(kernelRow));
  }
  return true;
}

bool isAicpuEntry(const JsonValue &op) {
  const JsonValue *info = op.find("opInfo");
  if (!info || !info->isObject())
    return false;
  const JsonValue *engine = info->find("engine");
  return engine && engine->isString() &&
         engine->string.find("AICPU") != std::string::npos;
}

} // namespace

bool parseOpsInfoJson(std::string_view text, const std::string &file,
                      OpLibrary &library, DiagnosticList &diags) {
  size_t errorsBefore = diags.errorCount();
  std::optional<JsonValue> root = parseJson(text, file, diags);
  if (!root)
    return false;
  if (!root->isObject()) {
    diags.error(root->loc, "an ops-info file must be a JSON object keyed by "
                           "op type, found " + root->kindName(),
                "OP-4");
    return false;
  }
  for (size_t i = 0; i < root->object.size(); ++i) {
    const auto &[opType, op] = root->object[i];
    if (!op.isObject()) {
      diags.error(op.loc, "op type " + opType + " must map to an object, found " +
                              op.kindName(),
                  "OP-4");
      continue;
    }
    bool aicpu = isAicpuEntry(op);
    OpInfo &info = library.ops[opType];
    info.opType = opType;
    std::optional<KernelInfo> &slot = aicpu ? info.aicpu : info.aicore;
    if (slot) {
      diags.error(root->keyLocs[i], "op type " + opType + " has a second " +
                                        (aicpu ? "AI CPU" : "AI Core") +
                                        " entry",
                  "OP-4")
          .notes.push_back({Severity::Note, "", slot->loc,
                            "first entry here", {}});
      continue;
    }
    KernelInfo kernel;
    if (!buildKernel(opType, op, aicpu, kernel, diags))
      continue;
    slot = std::move(kernel);
    if (aicpu)
      continue;
    if (const JsonValue *reduce = op.find("precision_reduce")) {
      const JsonValue *flag = reduce->isObject() ? reduce->find("flag") : nullptr;
      if (!flag || !flag->isString() ||
          (flag->string != "true" && flag->string != "false")) {
        diags.error(flag ? flag->loc : reduce->loc,
                    opType + ".precision_reduce must be {\"flag\": \"true\"} "
                             "or {\"flag\": \"false\"}",
                    "ML-1");
        continue;
      }
      info.precisionReduce = flag->string == "true";
      info.precisionReduceLoc = flag->loc;
    }
    if (const JsonValue *opObject = op.find("op"); opObject && opObject->isObject())
      if (const JsonValue *pattern = opObject->find("pattern");
          pattern && pattern->isString())
        info.pattern = pattern->string;
  }
  return diags.errorCount() == errorsBefore;
}

} // namespace ascendprec::policy
