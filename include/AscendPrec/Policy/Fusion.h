//===- Fusion.h - fusion passes, their switches (FU-1) --------------------===//
//
// The fusion passes AscendPrec runs, named as CANN names them, and which of
// them are on: general passes by default, non-general ones when named in
// `enable_scope_fusion_passes`, either kind switched by CANN's
// `fusion_switch_file`. Plain C++: prec-compile lists the passes and checks
// the options without any IR.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_FUSION_H
#define ASCENDPREC_POLICY_FUSION_H

#include "AscendPrec/Policy/Diagnostics.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ascendprec::policy {

/// The two sections of a fusion_switch_file: graph fusion rewrites the
/// graph before operator selection; buffer (UB) fusion groups a cube op with
/// the elementwise ops after it into one kernel.
enum class FusionKind { Graph, Buffer };

/// "GraphFusion" or "UBFusion", as the switch file spells the section.
const char *fusionKindSection(FusionKind kind);

struct FusionPassInfo {
  std::string name; ///< CANN's name for the pass
  FusionKind kind;
  bool general;           ///< on by default; else only by enable_scope_fusion_passes
  std::string fusedOpType; ///< op type of the op it produces
  std::string matches;     ///< what it matches, one line for --list-fusion-passes
};

/// Every fusion pass AscendPrec has, in the order they run.
const std::vector<FusionPassInfo> &fusionPasses();
const FusionPassInfo *findFusionPass(std::string_view name);

/// Names of CANN fusion passes AscendPrec does not have: a switch file may
/// name them (warning, not error).
bool isCannOnlyFusionPass(std::string_view name);

/// One `"Name": "on" | "off"` line of a switch file.
struct FusionSwitch {
  FusionKind kind;
  std::string name; ///< a pass name, or "ALL"
  bool on;
  SourceLoc loc;
};

/// CANN's fusion_switch_file:
/// `{"Switch": {"GraphFusion": {"Name": "on"|"off", "ALL": ...}, "UBFusion": {...}}}`.
struct FusionSwitchFile {
  std::string path;
  std::vector<FusionSwitch> switches; ///< in file order
};

/// Strict: unknown sections, values other than "on"/"off" and duplicate names
/// are errors with file:line:col; a name CANN has but AscendPrec does not is a
/// warning; an unknown name is an error with a suggestion.
std::optional<FusionSwitchFile> parseFusionSwitchFile(std::string_view text,
                                                      const std::string &file,
                                                      DiagnosticList &diags);

/// Which passes run, and why each one does or does not.
struct FusionSettings {
  struct State {
    bool on = false;
    std::string why; ///< "general: on by default", "off in <file>:<line>", ...
  };
  std::map<std::string, State> passes; ///< every pass of fusionPasses()
  /// Our extension (--fusion-respects-pins): a match that would absorb a
  /// customize_dtypes or keep_dtype node is skipped, so the pin holds.
  bool respectPins = false;

  bool isOn(std::string_view name) const;
};

/// FU-1: general passes on, the others off; then enable_scope_fusion_passes
/// (`scopePasses`, set at `scopeLoc`; an unknown name is an error listing the
/// known ones), then the switch file: a named switch beats its section's
/// "ALL", and a later line beats an earlier one.
FusionSettings resolveFusionSettings(const std::vector<std::string> &scopePasses,
                                     const SourceLoc &scopeLoc,
                                     const FusionSwitchFile *switchFile,
                                     DiagnosticList &diags);

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_FUSION_H
