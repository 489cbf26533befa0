//===- FusionSwitchFile.cpp - CANN's fusion_switch_file (FU-1) ------------===//

#include "AscendPrec/Policy/Fusion.h"
#include "AscendPrec/Policy/Json.h"

namespace ascendprec::policy {

namespace {
const char kShape[] = "expected {\"Switch\": {\"GraphFusion\": {\"<pass>\": \"on\" | \"off\", "
                      "...}, \"UBFusion\": {...}}}";

std::vector<std::string> namesOfKind(FusionKind kind) {
  std::vector<std::string> names = {"ALL"};
  for (const FusionPassInfo &pass : fusionPasses())
    if (pass.kind == kind)
      names.push_back(pass.name);
  return names;
}

/// One `"Name": "on"` member of a section; false on an error.
bool readSwitch(FusionKind kind, const std::string &name, const SourceLoc &nameLoc,
                const JsonValue &value, FusionSwitchFile &file, DiagnosticList &diags) {
  if (!value.isString() || (value.string != "on" && value.string != "off")) {
    diags.error(value.loc, "the switch of '" + name + "' must be \"on\" or \"off\", not " +
                               (value.isString() ? "\"" + value.string + "\"" : value.kindName()),
                "FU-1");
    return false;
  }
  const FusionPassInfo *pass = findFusionPass(name);
  if (name != "ALL" && pass && pass->kind != kind) {
    diags.error(nameLoc, "'" + name + "' is a " + fusionKindSection(pass->kind) +
                             " pass; move it to the \"" + fusionKindSection(pass->kind) +
                             "\" section",
                "FU-1");
    return false;
  }
  if (name != "ALL" && !pass) {
    if (isCannOnlyFusionPass(name)) {
      diags.warning(nameLoc, "'" + name + "' is a CANN fusion pass that AscendPrec does not "
                                          "have; its switch has no effect here",
                    "FU-1");
      return true;
    }
    diags.error(nameLoc, "'" + name + "' is not a fusion pass" +
                             unknownNameHint(name, namesOfKind(kind),
                                             std::string(fusionKindSection(kind)) + " passes"),
                "FU-1");
    return false;
  }
  file.switches.push_back({kind, name, value.string == "on", nameLoc});
  return true;
}
} // namespace

std::optional<FusionSwitchFile> parseFusionSwitchFile(std::string_view text,
                                                      const std::string &path,
                                                      DiagnosticList &diags) {
  std::optional<JsonValue> root = parseJson(text, path, diags);
  if (!root)
    return std::nullopt;
  size_t errorsBefore = diags.errorCount();
  FusionSwitchFile file{path, {}};
  const JsonValue *switches = root->isObject() ? root->find("Switch") : nullptr;
  if (!switches || !switches->isObject()) {
    diags.error(switches ? switches->loc : root->loc, kShape, "FU-1");
    return std::nullopt;
  }
  for (size_t i = 0; i < root->object.size(); ++i)
    if (root->object[i].first != "Switch")
      diags.error(root->keyLocs[i], "unknown key '" + root->object[i].first + "'; " + kShape,
                  "FU-1");
  for (size_t i = 0; i < switches->object.size(); ++i) {
    const auto &[section, members] = switches->object[i];
    std::optional<FusionKind> kind;
    if (section == "GraphFusion")
      kind = FusionKind::Graph;
    else if (section == "UBFusion")
      kind = FusionKind::Buffer;
    if (!kind) {
      diags.error(switches->keyLocs[i],
                  "unknown section '" + section + "'" +
                      unknownNameHint(section, {"GraphFusion", "UBFusion"}, "sections"),
                  "FU-1");
      continue;
    }
    if (!members.isObject()) {
      diags.error(members.loc, "\"" + section + "\" must be an object of \"<pass>\": "
                               "\"on\" | \"off\" members, not " + members.kindName(),
                  "FU-1");
      continue;
    }
    for (size_t j = 0; j < members.object.size(); ++j)
      readSwitch(*kind, members.object[j].first, members.keyLocs[j], members.object[j].second,
                 file, diags);
  }
  if (diags.errorCount() != errorsBefore)
    return std::nullopt;
  return file;
}

} // namespace ascendprec::policy
