//===- JsonWriter.h - indented JSON output --------------------------------===//

#ifndef ASCENDPREC_POLICY_JSONWRITER_H
#define ASCENDPREC_POLICY_JSONWRITER_H

#include <string>
#include <string_view>
#include <vector>

namespace ascendprec::policy {

/// Writes pretty-printed JSON. Callers open and close objects and arrays in
/// order; `key()` precedes every member value inside an object.
class JsonWriter {
public:
  JsonWriter &beginObject();
  JsonWriter &endObject();
  JsonWriter &beginArray();
  JsonWriter &endArray();
  JsonWriter &key(std::string_view name);
  JsonWriter &value(std::string_view text);
  JsonWriter &value(const char *text) { return value(std::string_view(text)); }
  JsonWriter &value(const std::string &text) {
    return value(std::string_view(text));
  }
  JsonWriter &value(long long number);
  JsonWriter &value(unsigned long long number);
  JsonWriter &value(int number) { return value(static_cast<long long>(number)); }
  JsonWriter &value(unsigned number) {
    return value(static_cast<unsigned long long>(number));
  }
  JsonWriter &value(bool flag);
  JsonWriter &null();

  /// key(name).value(v) in one call.
  template <typename T> JsonWriter &member(std::string_view name, T &&v) {
    key(name);
    return value(std::forward<T>(v));
  }

  const std::string &str() const { return out; }

private:
  void beforeValue();
  void newline();

  std::string out;
  /// Per open container: whether it has a member yet.
  std::vector<bool> hasMember;
  bool afterKey = false;
};

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_JSONWRITER_H
