//===- PolicyJson.cpp - the resolved policy as JSON (--print-policy) ------===//

#include "AscendPrec/Policy/PolicyJson.h"
#include "AscendPrec/Policy/JsonWriter.h"

#include <set>

namespace ascendprec::policy {

namespace {

void writeSlots(JsonWriter &json, const std::vector<DTypeSlot> &slots) {
  json.beginArray();
  for (const DTypeSlot &slot : slots)
    json.value(slot ? dtypeName(*slot) : std::string("any"));
  json.endArray();
}

void writeProvenance(JsonWriter &json, const Provenance &why) {
  json.member("rule", why.rule).member("source", why.sourceText());
  if (!why.why.empty())
    json.member("why", why.why);
}

void writeOptions(JsonWriter &json, const Policy &policy) {
  json.key("options").beginObject();
  for (const auto &[name, value] : policy.options.all()) {
    const OptionSpec *spec = findOptionSpec(name);
    json.key(name).beginObject();
    json.member("value", value.text)
        .member("source", value.loc.str())
        .member("effect", spec && spec->affectsCompilation);
    json.endObject();
  }
  json.endObject();
  json.key("accepted_no_effect").beginArray();
  for (const std::string &name : policy.noEffectOptions)
    json.value(name);
  json.endArray();
}

void writeLibrary(JsonWriter &json, const Policy &policy) {
  const OpLibrary &library = policy.library;
  json.key("operator_library").beginObject();
  json.member("source", policy.librarySource)
      .member("op_types", static_cast<unsigned long long>(library.ops.size()));
  json.key("files").beginArray();
  for (const std::string &file : library.files)
    json.value(file);
  json.endArray();
  json.key("platform");
  if (const auto &platform = library.platform) {
    json.beginObject();
    json.member("file", platform->path)
        .member("soc_version", platform->socVersion)
        .member("ai_core_cnt", static_cast<unsigned long long>(platform->aiCoreCount))
        .member("cube_core_cnt", static_cast<unsigned long long>(platform->cubeCoreCount))
        .member("vector_core_cnt", static_cast<unsigned long long>(platform->vectorCoreCount))
        .member("cube_m_n_k", std::to_string(platform->cubeM) + "x" +
                                  std::to_string(platform->cubeN) + "x" +
                                  std::to_string(platform->cubeK))
        .member("cube_freq_mhz", static_cast<unsigned long long>(platform->cubeFreqMHz))
        .member("l0_a_size", static_cast<unsigned long long>(platform->l0aSize))
        .member("l0_b_size", static_cast<unsigned long long>(platform->l0bSize))
        .member("l0_c_size", static_cast<unsigned long long>(platform->l0cSize))
        .member("l1_size", static_cast<unsigned long long>(platform->l1Size))
        .member("ub_size", static_cast<unsigned long long>(platform->ubSize));
    json.endObject();
  } else {
    json.null();
  }
  json.endObject();
}

void writeMixList(JsonWriter &json, const Policy &policy) {
  std::set<std::string> opTypes;
  for (const auto &entry : policy.library.ops)
    opTypes.insert(entry.first);
  if (policy.mixList)
    for (const auto &entry : policy.mixList->edits)
      opTypes.insert(entry.first);
  json.key("mixlist").beginObject();
  json.member("applies", isMixedMode(policy.mode));
  json.member("modify_mixlist",
              policy.mixList ? policy.mixList->path : std::string());
  json.key("op_types").beginObject();
  for (const std::string &opType : opTypes) {
    const OpInfo *info = policy.library.find(opType);
    ListAnswer answer = policy.listColor(opType);
    json.key(opType).beginObject();
    json.member("builtin", listColorName(info ? info->builtinColor()
                                              : ListColor::Gray))
        .member("list", listColorName(answer.color));
    writeProvenance(json, answer.why);
    json.endObject();
  }
  json.endObject();
  json.endObject();
}

void writeConfigFiles(JsonWriter &json, const Policy &policy) {
  json.key("keep_dtype");
  if (policy.keepDTypeList) {
    json.beginObject();
    json.member("file", policy.keepDTypeList->path)
        .member("active", policy.keepDTypeActive);
    json.key("entries").beginArray();
    for (const KeepDTypeEntry &entry : policy.keepDTypeList->entries) {
      json.beginObject();
      json.member(entry.isOpType ? "op_type" : "node_name", entry.name)
          .member("line", entry.loc.line);
      json.endObject();
    }
    json.endArray();
    json.endObject();
  } else {
    json.null();
  }

  json.key("customize_dtypes");
  if (policy.customizeList) {
    json.beginObject();
    json.member("file", policy.customizeList->path)
        .member("active", policy.customizeActive);
    json.key("entries").beginArray();
    for (const CustomizeDTypesEntry &entry : policy.customizeList->entries) {
      json.beginObject();
      json.member(entry.isOpType ? "op_type" : "node_name", entry.key);
      json.key("inputs");
      writeSlots(json, entry.inputs);
      json.key("outputs");
      writeSlots(json, entry.outputs);
      json.member("line", entry.loc.line);
      json.endObject();
    }
    json.endArray();
    json.endObject();
  } else {
    json.null();
  }

  json.key("impl_mode").beginObject();
  json.key("op_precision_mode");
  if (policy.opPrecisionMode) {
    json.beginObject();
    json.member("file", policy.opPrecisionMode->path);
    for (const auto &[section, table] :
         {std::pair<const char *, const std::map<std::string, ImplModeEntry> *>{
              "by_op_type", &policy.opPrecisionMode->byOpType},
          {"by_node_name", &policy.opPrecisionMode->byNodeName}}) {
      json.key(section).beginObject();
      for (const auto &[name, entry] : *table)
        json.member(name, entry.mode);
      json.endObject();
    }
    json.endObject();
  } else {
    json.null();
  }
  json.key("op_select_implmode");
  if (policy.opSelectImplMode)
    json.value(*policy.opSelectImplMode);
  else
    json.null();
  json.key("optypelist_for_implmode").beginArray();
  for (const std::string &opType : policy.optypelistForImplmode)
    json.value(opType);
  json.endArray();
  json.member("select_ignored", policy.implSelectIgnored);
  json.key("library_lists").beginArray();
  for (const auto &entry : policy.library.implModeLists)
    json.value(entry.first);
  json.endArray();
  json.endObject();
}

void writeTuning(JsonWriter &json, const Policy &policy) {
  json.key("tuning").beginObject();
  json.member("deterministic", policy.deterministic);
  json.key("aicore_num");
  if (policy.aicoreNum)
    json.value(std::to_string(policy.aicoreNum->first) + "|" +
               std::to_string(policy.aicoreNum->second));
  else
    json.null();
  json.member("enable_small_channel", policy.enableSmallChannel)
      .member("oo_constant_folding", policy.constantFolding);
  json.key("enable_scope_fusion_passes").beginArray();
  for (const std::string &pass : policy.fusionPasses)
    json.value(pass);
  json.endArray();
  json.endObject();
}

void writeDiagnostics(JsonWriter &json, const DiagnosticList &diags) {
  json.key("diagnostics").beginArray();
  for (const Diagnostic &diag : diags.all()) {
    json.beginObject();
    json.member("severity", diag.severity == Severity::Error     ? "error"
                            : diag.severity == Severity::Warning ? "warning"
                                                                 : "note")
        .member("rule", diag.rule)
        .member("location", diag.loc.str())
        .member("message", diag.message);
    json.endObject();
  }
  json.endArray();
}

} // namespace

std::string policyToJson(const Policy &policy) {
  JsonWriter json;
  json.beginObject();
  json.member("soc_version", policy.socVersion)
      .member("soc_family", policy.soc.family)
      .member("graph_run_mode", policy.graphRunMode);
  json.key("precision_mode").beginObject();
  json.member("value", policy.modeSpelling)
      .member("canonical", precisionModeName(policy.mode))
      .member("mixed", isMixedMode(policy.mode))
      .member("low_dtype", dtypeName(lowDType(policy.mode)));
  writeProvenance(json, policy.modeWhy);
  json.endObject();
  writeOptions(json, policy);
  writeLibrary(json, policy);
  writeMixList(json, policy);
  writeConfigFiles(json, policy);
  writeTuning(json, policy);
  writeDiagnostics(json, policy.buildDiagnostics);
  json.endObject();
  return json.str();
}

} // namespace ascendprec::policy
