//===- PolicyBuild.cpp - validate options and load every file -------------===//

#include "AscendPrec/Policy/Json.h"
#include "AscendPrec/Policy/OnnxOpTypes.h"
#include "AscendPrec/Policy/Policy.h"

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace ascendprec::policy {

namespace {

const SourceLoc kCommandLine{"<command line>"};

SourceLoc locOf(const SessionOptions &options, const std::string &name) {
  const OptionValue *value = options.get(name);
  return value ? value->loc : kCommandLine;
}

/// Reads the file an option names; errors point at the option.
bool readOptionFile(const SessionOptions &options, const std::string &name,
                    const std::string &rule, std::string &text,
                    DiagnosticList &diags) {
  const OptionValue *value = options.get(name);
  return readFile(value->text, text, diags, value->loc, rule, name);
}

/// PM-1..PM-4: which mode is in force, and why.
void resolvePrecisionMode(Policy &policy, DiagnosticList &diags) {
  const SessionOptions &options = policy.options;
  const OptionValue *v1 = options.get("precision_mode");
  const OptionValue *v2 = options.get("precision_mode_v2");
  if (v1 && v2) {
    diags.error(v2->loc, "precision_mode and precision_mode_v2 are both set; "
                         "set only one",
                "PM-2")
        .notes.push_back({Severity::Note, "", v1->loc,
                          "precision_mode set here", {}});
    return;
  }
  if (v1 || v2) {
    const OptionValue *value = v1 ? v1 : v2;
    std::optional<PrecisionMode> mode =
        v1 ? parsePrecisionMode(value->text) : parsePrecisionModeV2(value->text);
    if (!mode)
      return; // already rejected by the option table (PM-1)
    policy.mode = *mode;
    policy.modeSpelling = value->text;
    bool alias = precisionModeName(*mode) != value->text;
    policy.modeWhy = {alias ? "PM-3" : "PM-1", value->loc,
                      std::string(v1 ? "precision_mode" : "precision_mode_v2") +
                          "=" + value->text +
                          (alias ? " (same as " + precisionModeName(*mode) + ")"
                                 : "")};
    return;
  }
  // PM-4: defaults.
  if (policy.graphRunMode == 0) {
    policy.mode = PrecisionMode::ForceFp16;
    policy.modeWhy = {"PM-4", {}, "default for inference (graph_run_mode=0)"};
  } else if (policy.soc.fp32Cube) {
    policy.mode = PrecisionMode::MustKeepOrigin;
    policy.modeWhy = {"PM-4", {},
                      "default for training on " + policy.soc.family +
                          ", whose cube computes fp32"};
  } else {
    policy.mode = PrecisionMode::AllowFp32ToFp16;
    policy.modeWhy = {"PM-4", {}, "default for training (graph_run_mode=1)"};
  }
  policy.modeSpelling = precisionModeName(policy.mode);
}

/// PM-12: bf16 and hif8 modes need a SoC that has them.
void checkModeAgainstSoc(Policy &policy, DiagnosticList &diags) {
  SourceLoc loc = policy.options.has("precision_mode")
                      ? locOf(policy.options, "precision_mode")
                      : locOf(policy.options, "precision_mode_v2");
  if (needsBf16(policy.mode) && !policy.soc.supportsBf16)
    diags.error(loc, "precision mode '" + policy.modeSpelling +
                         "' needs bfloat16, which " + policy.socVersion +
                         " does not support; bf16 modes need an "
                         "Ascend910B, Ascend910_93 or Ascend310B-class SoC",
                "PM-12");
  if (needsHif8(policy.mode) && !policy.soc.supportsHif8)
    diags.error(loc, "precision mode '" + policy.modeSpelling +
                         "' needs hifloat8, which " + policy.socVersion +
                         " does not support; hif8 modes need an "
                         "Ascend950-class SoC",
                "PM-12");
}

/// OP-4: the user's ops_info_dir, else the built-in library for the SoC.
void loadLibrary(Policy &policy, const std::string &dataDir,
                 DiagnosticList &diags) {
  std::string builtinDir =
      policy.soc.libraryDir.empty()
          ? std::string()
          : (fs::path(dataDir) / policy.soc.libraryDir).string();
  if (const OptionValue *dir = policy.options.get("ops_info_dir")) {
    DiagnosticList libraryDiags;
    std::optional<OpLibrary> library =
        loadOpLibrary(dir->text, libraryDiags, platformConfigName(policy.socVersion));
    if (!library) {
      for (const Diagnostic &d : libraryDiags.all())
        diags.error(d.loc, d.message, d.rule).notes = d.notes;
      diags.error(dir->loc, "cannot use --ops_info_dir='" + dir->text + "'",
                  "OP-4");
      return;
    }
    diags.append(libraryDiags);
    policy.library = std::move(*library);
    policy.librarySource = dir->text;
    // Platform facts fall back to the built-in file for this SoC.
    if (!policy.library.platform && !builtinDir.empty()) {
      DiagnosticList scratch;
      if (auto builtin =
              loadOpLibrary(builtinDir, scratch, platformConfigName(policy.socVersion)))
        policy.library.platform = builtin->platform;
      diags.warning(dir->loc, "ops_info_dir has no platform_config/*.ini; "
                              "using the built-in platform facts for " +
                                  policy.soc.family,
                    "OP-4");
    }
    return;
  }
  if (builtinDir.empty()) {
    diags.error(locOf(policy.options, "soc_version"),
                "AscendPrec ships no operator library for " +
                    policy.socVersion +
                    "; pass --ops_info_dir=DIR with CANN's ops-info files "
                    "for it",
                "OP-4");
    return;
  }
  std::optional<OpLibrary> library =
      loadOpLibrary(builtinDir, diags, platformConfigName(policy.socVersion));
  if (!library)
    return;
  policy.library = std::move(*library);
  policy.librarySource = "built-in (" + builtinDir + ")";
}

std::vector<std::string> libraryOpTypes(const OpLibrary &library) {
  std::vector<std::string> names;
  for (const auto &entry : library.ops)
    names.push_back(entry.first);
  return names;
}

/// FU-1: enable_scope_fusion_passes and the fusion_switch_file.
void loadFusionSettings(Policy &policy, DiagnosticList &diags) {
  const SessionOptions &options = policy.options;
  std::vector<std::string> scopePasses;
  SourceLoc scopeLoc;
  if (const OptionValue *passes = options.get("enable_scope_fusion_passes")) {
    scopePasses = splitList(passes->text);
    scopeLoc = passes->loc;
  }
  std::optional<FusionSwitchFile> switchFile;
  if (options.has("fusion_switch_file")) {
    std::string text;
    if (!readOptionFile(options, "fusion_switch_file", "FU-1", text, diags))
      return;
    switchFile = parseFusionSwitchFile(text, options.get("fusion_switch_file")->text, diags);
    if (!switchFile)
      return;
  }
  policy.fusion = resolveFusionSettings(scopePasses, scopeLoc,
                                        switchFile ? &*switchFile : nullptr, diags);
}

void loadMixList(Policy &policy, DiagnosticList &diags) {
  if (!policy.options.has("modify_mixlist"))
    return;
  if (!isMixedMode(policy.mode)) {
    diags.error(locOf(policy.options, "modify_mixlist"),
                "modify_mixlist only applies in a mixed precision mode, but "
                "the mode is " + policy.modeSpelling +
                    "; use precision_mode=allow_mix_precision "
                    "(allow_mix_precision_fp16, allow_mix_precision_bf16) or "
                    "precision_mode_v2=mixed_float16 (mixed_bfloat16, "
                    "mixed_hif8)",
                "ML-8");
    return;
  }
  std::string text;
  if (!readOptionFile(policy.options, "modify_mixlist", "ML-9", text, diags))
    return;
  policy.mixList = parseModifyMixList(
      text, policy.options.get("modify_mixlist")->text, diags);
  if (!policy.mixList)
    return;
  // ML-7: removals from a list the op is not on, op types the library lacks;
  // reported in the file's line order.
  DiagnosticList found;
  for (const auto &[opType, edits] : policy.mixList->edits) {
    const OpInfo *info = policy.library.find(opType);
    if (!info) {
      // An ONNX spelling (MatMul, Softmax, LayerNormalization) points to the
      // name the model's ops have after import.
      std::string cann = cannOpTypeForOnnx(opType);
      std::string hint = cann != opType && policy.library.find(cann)
                             ? cann
                             : closestMatch(opType, libraryOpTypes(policy.library));
      found.warning(edits.front().loc,
                    "op type '" + opType + "' is not in the operator library "
                    "for " + policy.soc.family +
                        (hint.empty() ? "" : "; did you mean '" + hint + "'?"),
                    "ML-7");
    }
    ListColor builtin = info ? info->builtinColor() : ListColor::Gray;
    std::vector<MixListEdit> ignored;
    policy.mixList->apply(opType, builtin, &ignored);
    for (const MixListEdit &edit : ignored)
      found.warning(edit.loc, "'" + opType + "' is not on the " +
                                  listColorName(edit.list) +
                                  " list (it is " + listColorName(builtin) +
                                  "); removing it has no effect",
                    "ML-7");
  }
  std::vector<Diagnostic> ordered = found.all();
  std::stable_sort(ordered.begin(), ordered.end(), [](const Diagnostic &x, const Diagnostic &y) {
    return std::make_pair(x.loc.line, x.loc.column) < std::make_pair(y.loc.line, y.loc.column);
  });
  for (const Diagnostic &diag : ordered)
    diags.warning(diag.loc, diag.message, diag.rule);
}

void loadKeepAndCustomize(Policy &policy, DiagnosticList &diags) {
  bool origin = isOriginMode(policy.mode);
  if (policy.options.has("keep_dtype")) {
    std::string text;
    if (readOptionFile(policy.options, "keep_dtype", "KD-1", text, diags))
      policy.keepDTypeList = parseKeepDType(
          text, policy.options.get("keep_dtype")->text, diags);
    policy.keepDTypeActive = !origin;
    if (origin)
      diags.warning(locOf(policy.options, "keep_dtype"),
                    "keep_dtype has no effect under " + policy.modeSpelling +
                        ": every op keeps its origin dtype already",
                    "KD-3");
  }
  if (policy.options.has("customize_dtypes")) {
    const OptionValue *path = policy.options.get("customize_dtypes");
    std::string bad = findForbiddenPathCharacter(path->text);
    if (!bad.empty()) {
      diags.error(path->loc, "customize_dtypes path '" + path->text +
                                 "' contains '" + bad +
                                 "'; paths may contain letters, digits, '_', "
                                 "'-', '.', ':' and Chinese characters",
                  "CD-8");
      return;
    }
    std::string text;
    if (readOptionFile(policy.options, "customize_dtypes", "CD-1", text, diags))
      policy.customizeList = parseCustomizeDTypes(text, path->text, diags);
    policy.customizeActive = !origin;
    if (origin)
      diags.warning(path->loc, "customize_dtypes has no effect under " +
                                   policy.modeSpelling,
                    "CD-6");
  }
}

void loadImplModes(Policy &policy, DiagnosticList &diags) {
  const SessionOptions &options = policy.options;
  if (const OptionValue *select = options.get("op_select_implmode")) {
    policy.opSelectImplMode = select->text;
    diags.warning(select->loc, "op_select_implmode is deprecated; write the "
                               "modes in an .ini and pass it as "
                               "--op_precision_mode",
                  "IM-1");
    std::string listName = select->text;
    if (!policy.library.implModeLists.count(listName))
      diags.warning(select->loc, "the operator library has no impl_mode/" +
                                     listName + ".ini; op_select_implmode=" +
                                     select->text + " selects no op",
                    "IM-2");
  }
  if (const OptionValue *list = options.get("optypelist_for_implmode")) {
    if (!policy.opSelectImplMode)
      diags.error(list->loc, "optypelist_for_implmode needs "
                             "op_select_implmode to say which mode the listed "
                             "op types take",
                  "IM-3");
    policy.optypelistForImplmode = splitList(list->text);
    static const std::vector<std::string> documented = {"Pooling", "SoftmaxV2",
                                                        "LRN", "ROIAlign"};
    for (const std::string &opType : policy.optypelistForImplmode)
      if (std::find(documented.begin(), documented.end(), opType) ==
          documented.end())
        diags.warning(list->loc, "'" + opType + "' is not one of the op types "
                                 "CANN documents for optypelist_for_implmode (" +
                                     joinChoices(documented, ", ") + ")",
                      "IM-3");
  }
  if (const OptionValue *file = options.get("op_precision_mode")) {
    std::string text;
    if (readOptionFile(options, "op_precision_mode", "IM-4", text, diags))
      policy.opPrecisionMode = parseOpPrecisionMode(text, file->text, diags);
    if (policy.opSelectImplMode || !policy.optypelistForImplmode.empty()) {
      policy.implSelectIgnored = true;
      diags.warning(file->loc, "op_precision_mode is set, so "
                               "op_select_implmode and optypelist_for_implmode "
                               "are ignored",
                    "IM-5");
    }
  }
}

/// OP-2, OP-3 and the options whose stage does not exist yet.
void loadTuningOptions(Policy &policy, DiagnosticList &diags) {
  const SessionOptions &options = policy.options;
  std::vector<std::string> noEffect;
  for (const auto &[name, value] : options.all()) {
    const OptionSpec *spec = findOptionSpec(name);
    if (spec && !spec->affectsCompilation)
      noEffect.push_back(name);
  }
  policy.noEffectOptions = noEffect;
  if (!noEffect.empty())
    diags.warning(locOf(options, noEffect.front()),
                  "accepted, no effect on compilation here: " +
                      joinChoices(noEffect, ", "),
                  "OP-2");
  loadFusionSettings(policy, diags);
  if (const OptionValue *value = options.get("deterministic"))
    policy.deterministic = value->text == "1";
  if (const OptionValue *value = options.get("oo_constant_folding"))
    policy.constantFolding = value->text == "true";
  // Seed 004: enabled by default for inference, disabled for training.
  policy.enableSmallChannel = policy.graphRunMode == 0;
  if (const OptionValue *value = options.get("enable_small_channel"))
    policy.enableSmallChannel = value->text == "1";
  if (const OptionValue *value = options.get("aicore_num")) {
    std::vector<std::string> parts = splitList(value->text, '|');
    auto positive = [](const std::string &text, unsigned &out) {
      if (text.empty() || text.size() > 6 ||
          text.find_first_not_of("0123456789") != std::string::npos)
        return false;
      out = std::stoul(text);
      return out > 0;
    };
    unsigned cube = 0, vector = 0;
    if (parts.size() != 2 || !positive(parts[0], cube) ||
        !positive(parts[1], vector)) {
      diags.error(value->loc, "aicore_num takes 'cube|vector' with two "
                              "positive integers, e.g. '2|4'; found '" +
                                  value->text + "'",
                  "OP-3");
      return;
    }
    if (const auto &platform = policy.library.platform) {
      uint64_t vectorCores =
          platform->vectorCoreCount ? platform->vectorCoreCount
                                    : platform->aiCoreCount;
      if (cube > platform->cubeCoreCount || vector > vectorCores)
        diags.error(value->loc,
                    "aicore_num '" + value->text + "' exceeds " +
                        policy.socVersion + "'s " +
                        std::to_string(platform->cubeCoreCount) +
                        " cube and " + std::to_string(vectorCores) +
                        " vector cores",
                    "OP-3");
    }
    policy.aicoreNum = std::make_pair(cube, vector);
  }
}

} // namespace

std::optional<Policy> Policy::build(const SessionOptions &options,
                                    DiagnosticList &diags,
                                    const std::string &dataDir) {
  DiagnosticList local;
  Policy policy;
  policy.options = options;

  const OptionValue *soc = options.get("soc_version");
  if (!soc) {
    local.error(kCommandLine, "--soc_version is required, e.g. "
                              "--soc_version=Ascend910B3",
                "OP-1");
  } else if (std::optional<SocInfo> info = lookupSoc(soc->text)) {
    policy.socVersion = soc->text;
    policy.soc = *info;
  } else {
    std::vector<std::string> meant = likelyMeant(soc->text, knownSocVersions());
    for (std::string &name : meant)
      name = "'" + name + "'";
    local.error(soc->loc, "unknown soc_version '" + soc->text + "'" +
                              (meant.empty() ? "" : "; did you mean " + joinChoices(meant) + "?") +
                              " Known: " + joinChoices(knownSocVersions(), ", "),
                "OP-1");
  }
  if (const OptionValue *mode = options.get("graph_run_mode"))
    policy.graphRunMode = std::stoi(mode->text);

  if (!local.hasErrors()) {
    resolvePrecisionMode(policy, local);
    checkModeAgainstSoc(policy, local);
    loadLibrary(policy, dataDir, local);
  }
  if (!local.hasErrors()) {
    loadMixList(policy, local);
    loadKeepAndCustomize(policy, local);
    loadImplModes(policy, local);
    loadTuningOptions(policy, local);
  }

  diags.append(local);
  if (local.hasErrors())
    return std::nullopt;
  policy.buildDiagnostics = local;
  return policy;
}

} // namespace ascendprec::policy
