//===- JsonWriter.cpp - indented JSON output ------------------------------===//

#include "AscendPrec/Policy/JsonWriter.h"
#include "AscendPrec/Policy/Json.h"

namespace ascendprec::policy {

void JsonWriter::newline() {
  out += '\n';
  out.append(2 * hasMember.size(), ' ');
}

void JsonWriter::beforeValue() {
  if (afterKey) {
    afterKey = false;
    return;
  }
  if (hasMember.empty())
    return;
  if (hasMember.back())
    out += ',';
  hasMember.back() = true;
  newline();
}

JsonWriter &JsonWriter::beginObject() {
  beforeValue();
  out += '{';
  hasMember.push_back(false);
  return *this;
}

JsonWriter &JsonWriter::endObject() {
  bool any = hasMember.back();
  hasMember.pop_back();
  if (any)
    newline();
  out += '}';
  if (hasMember.empty())
    out += '\n';
  return *this;
}

JsonWriter &JsonWriter::beginArray() {
  beforeValue();
  out += '[';
  hasMember.push_back(false);
  return *this;
}

JsonWriter &JsonWriter::endArray() {
  bool any = hasMember.back();
  hasMember.pop_back();
  if (any)
    newline();
  out += ']';
  return *this;
}

JsonWriter &JsonWriter::key(std::string_view name) {
  beforeValue();
  out += jsonQuote(name) + ": ";
  afterKey = true;
  return *this;
}

JsonWriter &JsonWriter::value(std::string_view text) {
  beforeValue();
  out += jsonQuote(text);
  return *this;
}

JsonWriter &JsonWriter::value(long long number) {
  beforeValue();
  out += std::to_string(number);
  return *this;
}

JsonWriter &JsonWriter::value(unsigned long long number) {
  beforeValue();
  out += std::to_string(number);
  return *this;
}

JsonWriter &JsonWriter::value(bool flag) {
  beforeValue();
  out += flag ? "true" : "false";
  return *this;
}

JsonWriter &JsonWriter::null() {
  beforeValue();
  out += "null";
  return *this;
}

} // namespace ascendprec::policy
