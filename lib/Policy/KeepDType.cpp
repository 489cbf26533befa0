//===- KeepDType.cpp - keep_dtype lists (KD-1) ----------------------------===//

#include "AscendPrec/Policy/ConfigFiles.h"
#include "LineReader.h"

namespace ascendprec::policy {

std::optional<KeepDTypeList> parseKeepDType(std::string_view text,
                                            const std::string &file,
                                            DiagnosticList &diags) {
  size_t errorsBefore = diags.errorCount();
  KeepDTypeList list;
  list.path = file;
  forEachContentLine(text, file, [&](const ContentLine &line) {
    static constexpr std::string_view kOpType = "OpType::";
    if (line.text.substr(0, kOpType.size()) == kOpType) {
      std::string_view type = line.text.substr(kOpType.size());
      SourceLoc typeLoc = line.locAt(kOpType.size());
      if (!isOpTypeSpelling(type)) {
        diags.error(typeLoc,
                    "op type '" + std::string(type) +
                        "' is not PascalCase; expected an Ascend IR op type "
                        "such as 'Conv2D' after 'OpType::'",
                    "KD-1");
        return;
      }
      list.entries.push_back({true, std::string(type), typeLoc});
      return;
    }
    list.entries.push_back({false, std::string(line.text), line.loc});
  });
  if (diags.errorCount() != errorsBefore)
    return std::nullopt;
  if (list.entries.empty())
    diags.warning(SourceLoc{file}, "keep_dtype file lists no node names or op "
                                   "types; it has no effect",
                  "KD-1");
  return list;
}

} // namespace ascendprec::policy
