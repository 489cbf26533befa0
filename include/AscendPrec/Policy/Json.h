//===- Json.h - JSON with source positions and comments -------------------===//
//
// CANN's own config examples carry `//` comments (ML-9), and every error about
// a config value must name its line and column (OP-5), so values remember
// where they were written. Duplicate object keys are rejected.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_JSON_H
#define ASCENDPREC_POLICY_JSON_H

#include "AscendPrec/Policy/Diagnostics.h"
#include "AscendPrec/Policy/InputFile.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ascendprec::policy {

struct JsonValue {
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Kind kind = Kind::Null;
  SourceLoc loc;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> array;
  /// Members in file order; `.first` is the key, `.second.loc` the value's
  /// position, `keyLocs[i]` the key's.
  std::vector<std::pair<std::string, JsonValue>> object;
  std::vector<SourceLoc> keyLocs;

  bool isObject() const { return kind == Kind::Object; }
  bool isArray() const { return kind == Kind::Array; }
  bool isString() const { return kind == Kind::String; }
  /// The member named `key`, or null.
  const JsonValue *find(std::string_view key) const;
  /// "an object", "a string", ... for messages.
  std::string kindName() const;
};

/// Parses `text`, read from `file`. `//` and `/* */` comments are accepted.
/// On a syntax error returns nothing and reports it with its position.
std::optional<JsonValue> parseJson(std::string_view text,
                                   const std::string &file,
                                   DiagnosticList &diags);

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_JSON_H
