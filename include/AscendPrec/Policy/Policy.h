//===- Policy.h - one object for every precision option and file ----------===//
//
// Built from session options: validates them (PM-1, PM-2, PM-4, PM-12, ML-8,
// IM-1, IM-3, IM-5, KD-3, CD-6, CD-8, OP-2, OP-3), loads the operator library
// and every config file, and answers per-op questions with the rule and the
// file:line that decided (the resolution API). No MLIR here.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_POLICY_H
#define ASCENDPREC_POLICY_POLICY_H

#include "AscendPrec/Policy/ConfigFiles.h"
#include "AscendPrec/Policy/Fusion.h"
#include "AscendPrec/Policy/OpLibrary.h"
#include "AscendPrec/Policy/Options.h"
#include "AscendPrec/Policy/PrecisionMode.h"
#include "AscendPrec/Policy/Soc.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ascendprec::policy {

/// Why an answer is what it is: the rule, and the config entry (file:line)
/// or "built-in".
struct Provenance {
  std::string rule;
  SourceLoc source; ///< unknown = built-in default
  std::string why;  ///< one line for humans

  /// "built-in" or "file:line".
  std::string sourceText() const {
    return source.isKnown() ? source.fileAndLine() : "built-in";
  }
};

/// The decision source of an op whose type the operator library lacks: it
/// keeps its dtypes, and its engine is not known.
inline constexpr const char *kNoLibraryEntrySource = "no library entry";

/// What the resolution API needs to know about one op.
struct OpQuery {
  std::string opType;
  std::string nodeName;
  std::vector<std::string> absorbedNames; ///< names of ops fused into it
  std::vector<DType> inputDTypes;         ///< origin dtypes
  std::vector<DType> outputDTypes;
};

struct ListAnswer {
  ListColor color;
  Provenance why;
};

struct KeepDTypeAnswer {
  bool keep = false; ///< KD-2 applies
  Provenance why;
};

struct PinAnswer {
  bool pinned = false;
  std::vector<DTypeSlot> inputs, outputs; ///< nullopt = any
  Provenance why;
};

struct ImplModeAnswer {
  std::optional<std::string> mode; ///< nullopt: the op's default
  Provenance why;
};

struct KernelRowsAnswer {
  std::vector<KernelRow> aicore, aicpu; ///< rows left after pins
  bool ok = true;                       ///< false: CD-5 error reported
};

class Policy {
public:
  /// Validates `options` and loads everything they name. Returns nothing if
  /// any error was reported.
  static std::optional<Policy> build(const SessionOptions &options,
                                     DiagnosticList &diags,
                                     const std::string &dataDir =
                                         defaultOpsDataDir());

  // Resolution API -----------------------------------------------------------

  /// ML-1/ML-6: the op type's list colour after modify_mixlist. In a mode
  /// that is not mixed the colour is still reported (for the report) but has
  /// no effect.
  ListAnswer listColor(const std::string &opType) const;
  /// KD-2..KD-5: whether keep_dtype applies to the op.
  KeepDTypeAnswer keepDType(const OpQuery &op) const;
  /// CD-3, CD-4, CD-6: the customize_dtypes pin for the op. A CD-3 arity
  /// error is reported to `diags`.
  PinAnswer customizeDTypes(const OpQuery &op, DiagnosticList &diags) const;
  /// IM-5/IM-6: the op's implementation mode (IM-7: a warning when it is
  /// enable_hi_float_32_execution, which changes nothing).
  ImplModeAnswer implMode(const OpQuery &op, DiagnosticList &diags) const;
  /// CD-5: the op's kernel rows left after `pin` (all rows without a pin);
  /// reports an error naming the rows when a pin leaves none.
  KernelRowsAnswer kernelRows(const OpQuery &op, const PinAnswer &pin,
                              DiagnosticList &diags) const;

  /// Settings that name nothing in the model, one warning per file listing
  /// (up to 10) entries: keep_dtype (KD-4), customize_dtypes (CD-1),
  /// op_precision_mode (IM-4), optypelist_for_implmode (IM-3), and
  /// modify_mixlist op types absent from the model (ML-7).
  void reportUnusedSettings(const std::set<std::string> &nodeNames,
                            const std::set<std::string> &opTypes,
                            DiagnosticList &diags) const;

  // What was resolved ----------------------------------------------------------

  std::string socVersion;
  SocInfo soc;
  int graphRunMode = 0;
  PrecisionMode mode = PrecisionMode::ForceFp16;
  Provenance modeWhy; ///< PM-3 (alias), PM-4 (default) or the option
  std::string modeSpelling; ///< as the user wrote it (or the default's name)

  OpLibrary library;
  std::string librarySource; ///< "built-in (<dir>)" or the ops_info_dir

  std::optional<ModifyMixList> mixList;
  std::optional<KeepDTypeList> keepDTypeList;
  std::optional<CustomizeDTypesList> customizeList;
  std::optional<OpPrecisionModeFile> opPrecisionMode;
  std::optional<std::string> opSelectImplMode;
  std::vector<std::string> optypelistForImplmode;
  bool keepDTypeActive = false;  ///< false under origin (KD-3)
  bool customizeActive = false;  ///< false under origin (CD-6)
  bool implSelectIgnored = false; ///< IM-5: op_precision_mode wins

  std::vector<std::string> noEffectOptions; ///< OP-2, as set by the user
  FusionSettings fusion; ///< FU-1: which fusion passes run, and why
  bool deterministic = false;               ///< OP-3
  std::optional<std::pair<unsigned, unsigned>> aicoreNum; ///< OP-3 cube|vector
  bool enableSmallChannel = true;           ///< OP-3
  bool constantFolding = true;              ///< OP-3

  SessionOptions options;
  DiagnosticList buildDiagnostics; ///< warnings from build(), for the report

private:
  /// implMode's answer by IM-5/IM-6 alone.
  ImplModeAnswer implModeAsked(const OpQuery &op, DiagnosticList &diags) const;
};

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_POLICY_H
