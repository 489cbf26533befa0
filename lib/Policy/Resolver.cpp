//===- Resolver.cpp - per-op answers with rule and source -----------------===//

#include "AscendPrec/Policy/OnnxOpTypes.h"
#include "AscendPrec/Policy/Policy.h"

#include <algorithm>

namespace ascendprec::policy {

namespace {

bool isBuiltinLibrary(const Policy &policy) {
  return policy.librarySource.rfind("built-in", 0) == 0;
}

/// The node name and every absorbed name (FU-3).
std::vector<std::string> originalNames(const OpQuery &op) {
  std::vector<std::string> names{op.nodeName};
  names.insert(names.end(), op.absorbedNames.begin(), op.absorbedNames.end());
  return names;
}

std::string slotsText(const std::vector<DTypeSlot> &slots) {
  std::string text = "(";
  for (size_t i = 0; i < slots.size(); ++i)
    text += (i ? ", " : "") + (slots[i] ? dtypeName(*slots[i]) : std::string("any"));
  return text + ")";
}

bool rowMatches(const KernelRow &row, const PinAnswer &pin) {
  auto matches = [](const std::vector<DType> &dtypes,
                    const std::vector<DTypeSlot> &slots) {
    for (size_t i = 0; i < slots.size() && i < dtypes.size(); ++i)
      if (slots[i] && *slots[i] != dtypes[i])
        return false;
    return true;
  };
  return matches(row.inputs, pin.inputs) && matches(row.outputs, pin.outputs);
}

} // namespace

ListAnswer Policy::listColor(const std::string &opType) const {
  const OpInfo *info = library.find(opType);
  ListColor builtin = info ? info->builtinColor() : ListColor::Gray;
  if (mixList) {
    ListColor color = mixList->apply(opType, builtin);
    if (const MixListEdit *edit = mixList->decidingEdit(opType, builtin);
        edit && color != builtin)
      return {color,
              {"ML-6", edit->loc,
               std::string(edit->add ? "added to the " : "removed from the ") +
                   listColorName(edit->list) + " list by modify_mixlist"}};
  }
  Provenance why{"ML-1", {}, ""};
  if (!info)
    why.why = "not in the operator library: gray";
  else if (!info->precisionReduce)
    why.why = "no precision_reduce flag in the operator library: gray";
  else
    why.why = std::string("precision_reduce ") +
              (*info->precisionReduce ? "true" : "false") +
              " in the operator library";
  if (info && info->precisionReduce && !isBuiltinLibrary(*this))
    why.source = info->precisionReduceLoc;
  return {builtin, why};
}

PinAnswer Policy::customizeDTypes(const OpQuery &op,
                                  DiagnosticList &diags) const {
  PinAnswer answer;
  if (!customizeList)
    return answer;
  // CD-4: Opname beats OpType. Names absorbed by fusion do not match: the pin
  // of a fused op is dropped (CD-7).
  const CustomizeDTypesEntry *byName = customizeList->findByName(op.nodeName);
  const CustomizeDTypesEntry *byType = customizeList->findByOpType(op.opType);
  const CustomizeDTypesEntry *entry = byName ? byName : byType;
  if (!entry)
    return answer;
  if (!customizeActive) {
    answer.why = {"CD-6", entry->loc,
                  "customize_dtypes has no effect under " + modeSpelling};
    return answer;
  }
  // CD-3: no more dtypes than the op has inputs / outputs.
  auto checkArity = [&](size_t listed, size_t actual, const char *what) {
    if (listed <= actual)
      return true;
    diags.error(entry->loc,
                "customize_dtypes lists " + std::to_string(listed) + " " + what +
                    " dtypes for " + op.nodeName + " (" + op.opType +
                    "), which has " + std::to_string(actual) + " " + what + "s",
                "CD-3");
    return false;
  };
  if (!checkArity(entry->inputs.size(), op.inputDTypes.size(), "input") ||
      !checkArity(entry->outputs.size(), op.outputDTypes.size(), "output"))
    return answer;
  answer.pinned = true;
  answer.inputs = entry->inputs;
  answer.outputs = entry->outputs;
  std::string why = "pinned by customize_dtypes " + std::string(entry->isOpType
                                                                     ? "OpType::"
                                                                     : "") +
                    entry->key;
  if (byName && byType)
    why += " (the Opname entry wins over OpType::" + op.opType + " at line " +
           std::to_string(byType->loc.line) + ")";
  answer.why = {"CD-4", entry->loc, why};
  return answer;
}

KeepDTypeAnswer Policy::keepDType(const OpQuery &op) const {
  KeepDTypeAnswer answer;
  if (!keepDTypeList)
    return answer;
  const KeepDTypeEntry *match = nullptr;
  std::vector<std::string> names = originalNames(op);
  for (const KeepDTypeEntry &entry : keepDTypeList->entries) {
    bool hit = entry.isOpType
                   ? entry.name == op.opType
                   : std::find(names.begin(), names.end(), entry.name) !=
                         names.end();
    if (hit) {
      match = &entry;
      break;
    }
  }
  if (!match)
    return answer;
  if (!keepDTypeActive) {
    answer.why = {"KD-3", match->loc,
                  "keep_dtype has no effect under " + modeSpelling};
    return answer;
  }
  // KD-5: a customize_dtypes pin for the same op wins.
  DiagnosticList scratch;
  PinAnswer pin = customizeDTypes(op, scratch);
  if (pin.pinned) {
    answer.why = {"KD-5", match->loc,
                  "keep_dtype entry overridden by customize_dtypes at " +
                      pin.why.sourceText()};
    return answer;
  }
  answer.keep = true;
  bool viaAbsorbed = !match->isOpType && match->name != op.nodeName;
  answer.why = {"KD-2", match->loc,
                "kept at origin dtype by keep_dtype " +
                    std::string(match->isOpType ? "OpType::" : "") + match->name +
                    (viaAbsorbed ? " (a name fused into " + op.nodeName + ")"
                                 : "")};
  return answer;
}

namespace {

/// IM-7 (docs/decisions.md): the CANN this tool models does not support HF32
/// (its op_precision_mode reference says so of enable_hi_float_32_execution;
/// ATC's --allow_hf32 is reserved). The mode is kept as asked, and said to
/// change nothing: the op computes in fp32, at the fp32 cube rate.
void warnOfHiFloat32(const OpQuery &op, const ImplModeAnswer &answer, DiagnosticList &diags) {
  if (answer.mode && *answer.mode == "enable_hi_float_32_execution")
    diags.warning(answer.why.source,
                  op.nodeName + " (" + op.opType +
                      "): enable_hi_float_32_execution changes nothing: CANN does not "
                      "support HF32 in this version, so the op computes in fp32 and is "
                      "estimated at the fp32 cube rate",
                  "IM-7");
}

} // namespace

ImplModeAnswer Policy::implMode(const OpQuery &op, DiagnosticList &diags) const {
  ImplModeAnswer answer = implModeAsked(op, diags);
  warnOfHiFloat32(op, answer, diags);
  return answer;
}

ImplModeAnswer Policy::implModeAsked(const OpQuery &op, DiagnosticList &diags) const {
  ImplModeAnswer answer;
  // IM-5: ByNodeName > ByOpType > op_select_implmode > the op's default.
  if (opPrecisionMode) {
    for (const std::string &name : originalNames(op))
      if (auto it = opPrecisionMode->byNodeName.find(name);
          it != opPrecisionMode->byNodeName.end()) {
        answer = {it->second.mode,
                  {"IM-5", it->second.loc,
                   "op_precision_mode [ByNodeName] " + name}};
        break;
      }
    if (!answer.mode)
      if (auto it = opPrecisionMode->byOpType.find(op.opType);
          it != opPrecisionMode->byOpType.end())
        answer = {it->second.mode,
                  {"IM-5", it->second.loc,
                   "op_precision_mode [ByOpType] " + op.opType}};
  } else if (opSelectImplMode) {
    const std::string &select = *opSelectImplMode;
    bool forAll = select.size() > 8 &&
                  select.compare(select.size() - 8, 8, "_for_all") == 0;
    auto fromList = [&](const std::string &listName) {
      auto list = library.implModeLists.find(listName);
      if (list == library.implModeLists.end())
        return;
      auto entry = list->second.modes.find(op.opType);
      if (entry == list->second.modes.end() || entry->second.empty())
        return;
      answer = {entry->second.front(),
                {"IM-2", list->second.locs.at(op.opType),
                 "listed in " + listName + ".ini (op_select_implmode=" + select +
                     ")"}};
    };
    if (forAll) {
      fromList(select);
    } else if (!optypelistForImplmode.empty()) {
      if (std::find(optypelistForImplmode.begin(), optypelistForImplmode.end(),
                    op.opType) != optypelistForImplmode.end()) {
        const OptionValue *list = options.get("optypelist_for_implmode");
        answer = {select,
                  {"IM-3", list ? list->loc : SourceLoc{},
                   "listed in optypelist_for_implmode"}};
      }
    } else {
      fromList(select);
    }
  }
  // IM-6: all_ops_impl_mode.ini says which modes the op has.
  auto all = library.implModeLists.find("all_ops_impl_mode");
  if (all == library.implModeLists.end())
    return answer;
  auto supported = all->second.modes.find(op.opType);
  if (supported == all->second.modes.end() || supported->second.empty())
    return answer;
  const std::vector<std::string> &modes = supported->second;
  SourceLoc listLoc = all->second.locs.at(op.opType);
  if (modes.size() == 1) {
    if (answer.mode && *answer.mode != modes.front())
      diags.warning(answer.why.source,
                    op.nodeName + " (" + op.opType + ") supports only " +
                        modes.front() + "; " + *answer.mode +
                        " cannot apply",
                    "IM-6");
    return {modes.front(),
            {"IM-6", listLoc, op.opType + " supports only " + modes.front()}};
  }
  if (answer.mode &&
      std::find(modes.begin(), modes.end(), *answer.mode) == modes.end()) {
    diags.warning(answer.why.source,
                  op.nodeName + " (" + op.opType + ") has no " + *answer.mode +
                      " mode (all_ops_impl_mode.ini lists " +
                      joinChoices(modes, ", ") + "); its default is used",
                  "IM-6");
    return {std::nullopt,
            {"IM-6", listLoc,
             *answer.mode + " is not a mode of " + op.opType +
                 "; default used"}};
  }
  return answer;
}

KernelRowsAnswer Policy::kernelRows(const OpQuery &op, const PinAnswer &pin,
                                    DiagnosticList &diags) const {
  KernelRowsAnswer answer;
  const OpInfo *info = library.find(op.opType);
  if (!info)
    return answer;
  auto filter = [&](const std::optional<KernelInfo> &kernel,
                    std::vector<KernelRow> &out) {
    if (!kernel)
      return;
    for (const KernelRow &row : kernel->rows)
      if (!pin.pinned || rowMatches(row, pin))
        out.push_back(row);
  };
  filter(info->aicore, answer.aicore);
  filter(info->aicpu, answer.aicpu);
  if (pin.pinned && answer.aicore.empty() && answer.aicpu.empty()) {
    std::string rows;
    for (const auto *kernel : {&info->aicore, &info->aicpu})
      if (*kernel)
        for (const KernelRow &row : (*kernel)->rows)
          rows += "\n  " + std::string(kernel == &info->aicore ? "AI Core " : "AI CPU  ") +
                  row.str();
    diags.error(pin.why.source,
                "customize_dtypes pins " + op.nodeName + " (" + op.opType +
                    ") to inputs " + slotsText(pin.inputs) + ", outputs " +
                    slotsText(pin.outputs) +
                    ", which no kernel supports; the model cannot be built. "
                    "Its kernels support:" +
                    (rows.empty() ? std::string(" (none)") : rows),
                "CD-5");
    answer.ok = false;
  }
  return answer;
}

namespace {

/// A config entry naming a node or an op type, for "matches nothing".
struct SettingEntry {
  bool isOpType;
  std::string name;
  SourceLoc loc;
};

/// Why an entry may match nothing: an ONNX op type whose CANN name the
/// model has ("OpType::Softmax" for SoftmaxV2), else a near name.
std::string unmatchedHint(const SettingEntry &entry, const std::set<std::string> &nodeNames,
                          const std::set<std::string> &opTypes) {
  if (entry.isOpType) {
    std::string cann = cannOpTypeForOnnx(entry.name);
    if (cann != entry.name && opTypes.count(cann))
      return ": ONNX's name; CANN's op type is " + cann + ", write OpType::" + cann;
  }
  const std::set<std::string> &names = entry.isOpType ? opTypes : nodeNames;
  // Suggesting among a huge graph's names costs more than it helps.
  if (names.size() > 20000)
    return "";
  std::vector<std::string> meant =
      likelyMeant(entry.name, std::vector<std::string>(names.begin(), names.end()));
  if (meant.empty())
    return "";
  for (std::string &name : meant)
    name = "'" + std::string(entry.isOpType ? "OpType::" : "") + name + "'";
  return ": did you mean " + joinChoices(meant) + "?";
}

/// One warning listing (up to 10) entries of `what` that match no node name
/// or op type of the model, located at the earliest one so that an editor
/// can jump there (`fallback` when none has a line).
void warnUnmatched(const std::string &what, const std::vector<SettingEntry> &entries,
                   const std::set<std::string> &nodeNames,
                   const std::set<std::string> &opTypes, const SourceLoc &fallback,
                   const std::string &rule, DiagnosticList &diags) {
  std::vector<std::string> unmatched;
  SourceLoc first;
  for (const SettingEntry &entry : entries) {
    if (entry.isOpType ? opTypes.count(entry.name) : nodeNames.count(entry.name))
      continue;
    if (first.file.empty() || (entry.loc.file == first.file && entry.loc.line < first.line))
      first = entry.loc;
    unmatched.push_back((entry.isOpType ? "OpType::" : "") + entry.name +
                        (entry.loc.line ? " (line " + std::to_string(entry.loc.line) + ")"
                                        : "") +
                        unmatchedHint(entry, nodeNames, opTypes));
  }
  if (unmatched.empty())
    return;
  size_t total = unmatched.size();
  if (total > 10)
    unmatched.resize(10);
  diags.warning(first.file.empty() ? fallback : first,
                std::to_string(total) + " " + what + " entr" +
                    (total == 1 ? "y matches" : "ies match") +
                    " no op in the model: " + joinChoices(unmatched, ", ") +
                    (total > 10 ? " and " + std::to_string(total - 10) + " more" : ""),
                rule);
}

} // namespace

void Policy::reportUnusedSettings(const std::set<std::string> &nodeNames,
                                  const std::set<std::string> &opTypes,
                                  DiagnosticList &diags) const {
  if (keepDTypeList) {
    std::vector<SettingEntry> entries;
    for (const KeepDTypeEntry &entry : keepDTypeList->entries)
      entries.push_back({entry.isOpType, entry.name, entry.loc});
    warnUnmatched("keep_dtype", entries, nodeNames, opTypes,
                  SourceLoc{keepDTypeList->path}, "KD-4", diags);
  }
  // The same warning for customize_dtypes, op_precision_mode and
  // optypelist_for_implmode (docs/decisions.md: the spec names it for
  // keep_dtype only).
  if (customizeList) {
    std::vector<SettingEntry> entries;
    for (const CustomizeDTypesEntry &entry : customizeList->entries)
      entries.push_back({entry.isOpType, entry.key, entry.loc});
    warnUnmatched("customize_dtypes", entries, nodeNames, opTypes,
                  SourceLoc{customizeList->path}, "CD-1", diags);
  }
  if (opPrecisionMode) {
    std::vector<SettingEntry> entries;
    for (const auto &[opType, entry] : opPrecisionMode->byOpType)
      entries.push_back({true, opType, entry.loc});
    for (const auto &[node, entry] : opPrecisionMode->byNodeName)
      entries.push_back({false, node, entry.loc});
    warnUnmatched("op_precision_mode", entries, nodeNames, opTypes,
                  SourceLoc{opPrecisionMode->path}, "IM-4", diags);
  }
  if (!optypelistForImplmode.empty() && !implSelectIgnored) {
    const OptionValue *option = options.get("optypelist_for_implmode");
    SourceLoc loc = option ? option->loc : SourceLoc{"<command line>"};
    std::vector<SettingEntry> entries;
    for (const std::string &opType : optypelistForImplmode)
      entries.push_back({true, opType, loc});
    warnUnmatched("optypelist_for_implmode", entries, nodeNames, opTypes, loc, "IM-3",
                  diags);
  }
  if (!mixList)
    return;
  // ML-7: op types the mixlist edits that the model does not have.
  std::vector<std::string> unused;
  SourceLoc first; // the earliest unused entry in the file, for editors
  for (const auto &[opType, edits] : mixList->edits) {
    if (opTypes.count(opType) || edits.empty())
      continue;
    unused.push_back(opType);
    const SourceLoc &loc = edits.front().loc;
    if (first.file.empty() || loc.line < first.line ||
        (loc.line == first.line && loc.column < first.column))
      first = loc;
  }
  if (first.file.empty())
    first = SourceLoc{mixList->path};
  if (!unused.empty())
    diags.warning(first,
                  "modify_mixlist names op types that appear nowhere in the "
                  "model: " + joinChoices(unused, ", "),
                  "ML-7");
}

} // namespace ascendprec::policy
