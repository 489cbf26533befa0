//===- PrecisionEdits.h - ops raised to their origin dtype, as CANN files --===//
//
// What a precision search changes in a plan, and the CANN config files that
// make CANN (and prec-compile) plan it the same way: keep_dtype lines for
// single ops (KD-1, KD-2) and for whole op types (`OpType::`), or, under a
// mixed precision mode, a modify_mixlist black list for whole types (ML-3,
// ML-6). No MLIR here.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_PRECISIONEDITS_H
#define ASCENDPREC_POLICY_PRECISIONEDITS_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ascendprec::policy {

/// Ops to keep in their origin dtype (fp32 in an fp32 model).
struct PrecisionEdits {
  std::vector<std::string> nodeNames; ///< single ops, by node name
  std::vector<std::string> opTypes;   ///< every op of these types
  bool empty() const { return nodeNames.empty() && opTypes.empty(); }
};

/// KD-1: the keep_dtype line naming node `name`, if the format can express
/// it so that it reads back as the same name. It cannot when the name is
/// empty, has blanks or tabs at either end (lines are trimmed), starts with
/// `#` (a comment) or `OpType::` (an op type line), or holds a line break or
/// NUL; then `problem` says which.
std::optional<std::string> formatKeepDTypeLine(std::string_view name, std::string &problem);

/// A keep_dtype file: `userText` (the user's own keep_dtype, kept as it is)
/// followed by `header` as comment lines and one line per node name and op
/// type of `edits`. Names formatKeepDTypeLine rejects must not be passed.
std::string keepDTypeFileText(const PrecisionEdits &edits, std::string_view userText,
                              const std::vector<std::string> &header);

/// A modify_mixlist file (ML-5) that puts `opTypes` on the black list, with
/// `header` as `//` comment lines (ML-9).
std::string blackListFileText(const std::vector<std::string> &opTypes,
                              const std::vector<std::string> &header);

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_PRECISIONEDITS_H
