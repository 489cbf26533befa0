//===- PolicyJson.cpp - the resolved policy as JSON (--print-policy) ------===//

#include "AscendPrec/Policy/PolicyJson.h"
#include "AscendPrec/Policy/JsonOutput.h"

#include "llvm/Support/raw_ostream.h"

#include <set>

namespace ascendprec::policy {

namespace {

using llvm::json::OStream;

/// Writes the object of --print-policy, one section per method.
class PolicyWriter {
public:
  PolicyWriter(OStream &json, const Policy &policy) : json(json), policy(policy) {}

  void write() {
    json.object([&] {
      json.attribute("soc_version", jsonText(policy.socVersion));
      json.attribute("soc_family", jsonText(policy.soc.family));
      json.attribute("graph_run_mode", policy.graphRunMode);
      json.attributeObject("precision_mode", [&] {
        json.attribute("value", jsonText(policy.modeSpelling));
        json.attribute("canonical", precisionModeName(policy.mode));
        json.attribute("mixed", isMixedMode(policy.mode));
        json.attribute("low_dtype", dtypeName(lowDType(policy.mode)));
        provenance(policy.modeWhy);
      });
      options();
      library();
      mixList();
      keepDType();
      customizeDTypes();
      implModes();
      tuning();
      diagnostics(policy.buildDiagnostics);
    });
  }

private:
  void strings(llvm::StringRef key, const std::vector<std::string> &items) {
    json.attributeArray(key, [&] {
      for (const std::string &item : items)
        json.value(jsonText(item));
    });
  }

  /// Writes `key` as `write()`'s object, or null when `present` is false.
  template <typename Write> void objectOrNull(llvm::StringRef key, bool present, Write write) {
    if (present)
      json.attributeObject(key, write);
    else
      json.attribute(key, nullptr);
  }

  void slots(llvm::StringRef key, const std::vector<DTypeSlot> &slots) {
    json.attributeArray(key, [&] {
      for (const DTypeSlot &slot : slots)
        json.value(slot ? dtypeName(*slot) : std::string("any"));
    });
  }

  void provenance(const Provenance &why) {
    json.attribute("rule", why.rule);
    json.attribute("source", jsonText(why.sourceText()));
    if (!why.why.empty())
      json.attribute("why", jsonText(why.why));
  }

  void options() {
    json.attributeObject("options", [&] {
      for (const auto &option : policy.options.all()) {
        const OptionSpec *spec = findOptionSpec(option.first);
        json.attributeObject(option.first, [&] {
          json.attribute("value", jsonText(option.second.text));
          json.attribute("source", jsonText(option.second.loc.str()));
          json.attribute("effect", spec && spec->affectsCompilation);
        });
      }
    });
    strings("accepted_no_effect", policy.noEffectOptions);
  }

  void library() {
    const OpLibrary &library = policy.library;
    json.attributeObject("operator_library", [&] {
      json.attribute("source", jsonText(policy.librarySource));
      json.attribute("op_types", static_cast<int64_t>(library.ops.size()));
      strings("files", library.files);
      const auto &platform = library.platform;
      objectOrNull("platform", platform.has_value(), [&] {
        auto count = [&](llvm::StringRef key, uint64_t value) {
          json.attribute(key, static_cast<int64_t>(value));
        };
        json.attribute("file", jsonText(platform->path));
        json.attribute("soc_version", jsonText(platform->socVersion));
        count("ai_core_cnt", platform->aiCoreCount);
        count("cube_core_cnt", platform->cubeCoreCount);
        count("vector_core_cnt", platform->vectorCoreCount);
        json.attribute("cube_m_n_k", std::to_string(platform->cubeM) + "x" +
                                         std::to_string(platform->cubeN) + "x" +
                                         std::to_string(platform->cubeK));
        count("cube_freq_mhz", platform->cubeFreqMHz);
        count("l0_a_size", platform->l0aSize);
        count("l0_b_size", platform->l0bSize);
        count("l0_c_size", platform->l0cSize);
        count("l1_size", platform->l1Size);
        count("ub_size", platform->ubSize);
      });
    });
  }

  void mixList() {
    std::set<std::string> opTypes;
    for (const auto &entry : policy.library.ops)
      opTypes.insert(entry.first);
    if (policy.mixList)
      for (const auto &entry : policy.mixList->edits)
        opTypes.insert(entry.first);
    json.attributeObject("mixlist", [&] {
      json.attribute("applies", isMixedMode(policy.mode));
      json.attribute("modify_mixlist",
                     jsonText(policy.mixList ? policy.mixList->path : std::string()));
      json.attributeObject("op_types", [&] {
        for (const std::string &opType : opTypes) {
          const OpInfo *info = policy.library.find(opType);
          ListAnswer answer = policy.listColor(opType);
          json.attributeObject(opType, [&] {
            json.attribute("builtin",
                           listColorName(info ? info->builtinColor() : ListColor::Gray));
            json.attribute("list", listColorName(answer.color));
            provenance(answer.why);
          });
        }
      });
    });
  }

  void keepDType() {
    const auto &list = policy.keepDTypeList;
    objectOrNull("keep_dtype", list.has_value(), [&] {
      json.attribute("file", jsonText(list->path));
      json.attribute("active", policy.keepDTypeActive);
      json.attributeArray("entries", [&] {
        for (const KeepDTypeEntry &entry : list->entries)
          json.object([&] {
            json.attribute(entry.isOpType ? "op_type" : "node_name", jsonText(entry.name));
            json.attribute("line", static_cast<int64_t>(entry.loc.line));
          });
      });
    });
  }

  void customizeDTypes() {
    const auto &list = policy.customizeList;
    objectOrNull("customize_dtypes", list.has_value(), [&] {
      json.attribute("file", jsonText(list->path));
      json.attribute("active", policy.customizeActive);
      json.attributeArray("entries", [&] {
        for (const CustomizeDTypesEntry &entry : list->entries)
          json.object([&] {
            json.attribute(entry.isOpType ? "op_type" : "node_name", jsonText(entry.key));
            slots("inputs", entry.inputs);
            slots("outputs", entry.outputs);
            json.attribute("line", static_cast<int64_t>(entry.loc.line));
          });
      });
    });
  }

  void implModes() {
    json.attributeObject("impl_mode", [&] {
      const auto &byFile = policy.opPrecisionMode;
      objectOrNull("op_precision_mode", byFile.has_value(), [&] {
        json.attribute("file", jsonText(byFile->path));
        for (const auto &section :
             {std::pair<const char *, const std::map<std::string, ImplModeEntry> *>{
                  "by_op_type", &byFile->byOpType},
              {"by_node_name", &byFile->byNodeName}})
          json.attributeObject(section.first, [&] {
            for (const auto &[name, entry] : *section.second)
              json.attribute(name, jsonText(entry.mode));
          });
      });
      if (policy.opSelectImplMode)
        json.attribute("op_select_implmode", jsonText(*policy.opSelectImplMode));
      else
        json.attribute("op_select_implmode", nullptr);
      strings("optypelist_for_implmode", policy.optypelistForImplmode);
      json.attribute("select_ignored", policy.implSelectIgnored);
      json.attributeArray("library_lists", [&] {
        for (const auto &entry : policy.library.implModeLists)
          json.value(jsonText(entry.first));
      });
    });
  }

  void tuning() {
    json.attributeObject("tuning", [&] {
      json.attribute("deterministic", policy.deterministic);
      if (policy.aicoreNum)
        json.attribute("aicore_num", std::to_string(policy.aicoreNum->first) + "|" +
                                         std::to_string(policy.aicoreNum->second));
      else
        json.attribute("aicore_num", nullptr);
      json.attribute("enable_small_channel", policy.enableSmallChannel);
      json.attribute("oo_constant_folding", policy.constantFolding);
    });
    json.attributeObject("fusion_passes", [&] {
      for (const FusionPassInfo &pass : fusionPasses()) {
        auto state = policy.fusion.passes.find(pass.name);
        if (state == policy.fusion.passes.end())
          continue;
        json.attributeObject(pass.name, [&] {
          json.attribute("on", state->second.on);
          json.attribute("why", jsonText(state->second.why));
        });
      }
    });
  }

  void diagnostics(const DiagnosticList &diags) {
    json.attributeArray("diagnostics", [&] {
      for (const Diagnostic &diag : diags.all())
        json.object([&] {
          json.attribute("severity", diag.severity == Severity::Error     ? "error"
                                     : diag.severity == Severity::Warning ? "warning"
                                                                          : "note");
          json.attribute("rule", diag.rule);
          json.attribute("location", jsonText(diag.loc.str()));
          json.attribute("message", jsonText(diag.message));
        });
    });
  }

  OStream &json;
  const Policy &policy;
};

} // namespace

std::string policyToJson(const Policy &policy) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OStream json(os, /*IndentSize=*/2);
  PolicyWriter(json, policy).write();
  os << "\n";
  return text;
}

} // namespace ascendprec::policy
