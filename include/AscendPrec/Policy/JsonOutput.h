//===- JsonOutput.h - writing JSON with llvm::json::OStream ---------------===//
//
// Every JSON file AscendPrec writes (report.json, --print-policy,
// options.json) goes through llvm::json::OStream; reading keeps the
// positioned reader of Json.h (docs/decisions.md).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_JSONOUTPUT_H
#define ASCENDPREC_POLICY_JSONOUTPUT_H

#include "llvm/Support/JSON.h"

#include <string>

namespace ascendprec::policy {

/// A JSON string for `text`. JSON is UTF-8: bytes that are not (possible
/// in node names and paths) become U+FFFD; valid text is not copied.
inline llvm::json::Value jsonText(const std::string &text) {
  if (llvm::json::isUTF8(text))
    return llvm::StringRef(text);
  return llvm::json::fixUTF8(text);
}

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_JSONOUTPUT_H
