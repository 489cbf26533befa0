//===- Json.cpp - JSON with source positions and comments -----------------===//

#include "AscendPrec/Policy/Json.h"

#include <cmath>
#include <cstdlib>

namespace ascendprec::policy {

const JsonValue *JsonValue::find(std::string_view key) const {
  for (const auto &member : object)
    if (member.first == key)
      return &member.second;
  return nullptr;
}

std::string JsonValue::kindName() const {
  switch (kind) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return "a boolean";
  case Kind::Number:
    return "a number";
  case Kind::String:
    return "a string";
  case Kind::Array:
    return "an array";
  case Kind::Object:
    return "an object";
  }
  return "a value";
}

namespace {

/// Recursive-descent reader. Nesting is bounded so hostile input cannot
/// exhaust the stack.
class JsonReader {
public:
  JsonReader(std::string_view text, const std::string &file,
             DiagnosticList &diags)
      : text(text), file(file), diags(diags) {}

  std::optional<JsonValue> parseDocument() {
    skipSpace();
    if (failed)
      return std::nullopt;
    if (atEnd()) {
      fail("the file is empty; expected a JSON value");
      return std::nullopt;
    }
    JsonValue value;
    if (!parseValue(value, 0))
      return std::nullopt;
    skipSpace();
    if (!failed && !atEnd())
      fail(std::string("unexpected '") + peek() +
           "' after the JSON value; expected the end of the file");
    if (failed)
      return std::nullopt;
    return value;
  }

private:
  static constexpr unsigned kMaxDepth = 200;

  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return atEnd() ? '\0' : text[pos]; }
  SourceLoc here() const { return {file, line, column}; }

  void advance() {
    if (atEnd())
      return;
    if (text[pos] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    ++pos;
  }

  bool fail(const std::string &message) { return fail(here(), message); }
  bool fail(const SourceLoc &loc, const std::string &message) {
    if (!failed)
      diags.error(loc, message);
    failed = true;
    return false;
  }

  void skipSpace() {
    while (!atEnd() && !failed) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        advance();
      } else if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '/') {
        while (!atEnd() && peek() != '\n')
          advance();
      } else if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '*') {
        SourceLoc start = here();
        advance();
        advance();
        while (!atEnd() && !(peek() == '*' && pos + 1 < text.size() &&
                             text[pos + 1] == '/'))
          advance();
        if (atEnd()) {
          fail(start, "unterminated /* comment");
          return;
        }
        advance();
        advance();
      } else {
        return;
      }
    }
  }

  bool parseValue(JsonValue &value, unsigned depth) {
    if (depth > kMaxDepth)
      return fail("JSON nested more than " + std::to_string(kMaxDepth) +
                  " levels deep");
    value.loc = here();
    char c = peek();
    if (c == '{')
      return parseObject(value, depth);
    if (c == '[')
      return parseArray(value, depth);
    if (c == '"') {
      value.kind = JsonValue::Kind::String;
      return parseString(value.string);
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber(value);
    if (matchWord("true")) {
      value.kind = JsonValue::Kind::Bool;
      value.boolean = true;
      return true;
    }
    if (matchWord("false")) {
      value.kind = JsonValue::Kind::Bool;
      return true;
    }
    if (matchWord("null"))
      return true;
    if (atEnd())
      return fail("unexpected end of file; expected a JSON value");
    return fail(std::string("unexpected '") + c +
                "'; expected a JSON value (object, array, string, number, "
                "true, false or null)");
  }

  bool matchWord(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      return false;
    size_t end = pos + word.size();
    if (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                              text[end] == '_'))
      return false;
    for (size_t i = 0; i < word.size(); ++i)
      advance();
    return true;
  }

  bool parseObject(JsonValue &value, unsigned depth) {
    value.kind = JsonValue::Kind::Object;
    advance(); // '{'
    skipSpace();
    if (peek() == '}') {
      advance();
      return true;
    }
    while (true) {
      skipSpace();
      if (failed)
        return false;
      if (peek() != '"') {
        if (peek() == '}')
          return fail("trailing comma before '}'; remove it");
        return fail(atEnd() ? "unexpected end of file inside an object; "
                              "expected '\"' to start a key"
                            : std::string("unexpected '") + peek() +
                                  "'; expected '\"' to start an object key");
      }
      SourceLoc keyLoc = here();
      std::string key;
      if (!parseString(key))
        return false;
      for (size_t i = 0; i < value.object.size(); ++i)
        if (value.object[i].first == key) {
          diags.error(keyLoc, "duplicate key \"" + key + "\"")
              .notes.push_back({Severity::Note, "", value.keyLocs[i],
                                "first written here", {}});
          failed = true;
          return false;
        }
      skipSpace();
      if (peek() != ':')
        return fail(std::string("expected ':' after the key \"") + key + "\"");
      advance();
      skipSpace();
      if (failed)
        return false;
      JsonValue member;
      if (!parseValue(member, depth + 1))
        return false;
      value.object.emplace_back(std::move(key), std::move(member));
      value.keyLocs.push_back(keyLoc);
      if (AfterItem after = afterItem('}', "an object member"); after != AfterItem::Next)
        return after == AfterItem::Closed;
    }
  }

  enum class AfterItem { Next, Closed, Failed };
  /// After an object member or array element: a ',' (another item follows)
  /// or `close` (consumed either way); anything else is an error.
  AfterItem afterItem(char close, const char *item) {
    skipSpace();
    if (failed)
      return AfterItem::Failed;
    if (peek() == ',' || peek() == close) {
      bool next = peek() == ',';
      advance();
      return next ? AfterItem::Next : AfterItem::Closed;
    }
    std::string expected = std::string("expected ',' or '") + close + "'";
    fail(atEnd() ? "unexpected end of file; " + expected
                 : std::string("unexpected '") + peek() + "'; " + expected + " after " +
                       item + " (a missing comma?)");
    return AfterItem::Failed;
  }

  bool parseArray(JsonValue &value, unsigned depth) {
    value.kind = JsonValue::Kind::Array;
    advance(); // '['
    skipSpace();
    if (peek() == ']') {
      advance();
      return true;
    }
    while (true) {
      skipSpace();
      if (failed)
        return false;
      if (peek() == ']')
        return fail("trailing comma before ']'; remove it");
      JsonValue element;
      if (!parseValue(element, depth + 1))
        return false;
      value.array.push_back(std::move(element));
      if (AfterItem after = afterItem(']', "an array element"); after != AfterItem::Next)
        return after == AfterItem::Closed;
    }
  }

  static void appendUtf8(std::string &out, unsigned codePoint) {
    if (codePoint < 0x80) {
      out += static_cast<char>(codePoint);
    } else if (codePoint < 0x800) {
      out += static_cast<char>(0xC0 | (codePoint >> 6));
      out += static_cast<char>(0x80 | (codePoint & 0x3F));
    } else if (codePoint < 0x10000) {
      out += static_cast<char>(0xE0 | (codePoint >> 12));
      out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (codePoint & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (codePoint >> 18));
      out += static_cast<char>(0x80 | ((codePoint >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (codePoint & 0x3F));
    }
  }

  bool parseHex4(unsigned &value) {
    value = 0;
    for (int i = 0; i < 4; ++i) {
      char c = peek();
      unsigned digit;
      if (c >= '0' && c <= '9')
        digit = c - '0';
      else if (c >= 'a' && c <= 'f')
        digit = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        digit = c - 'A' + 10;
      else
        return fail("expected 4 hexadecimal digits after \\u");
      value = value * 16 + digit;
      advance();
    }
    return true;
  }

  bool parseString(std::string &out) {
    SourceLoc start = here();
    advance(); // opening quote
    while (true) {
      if (atEnd())
        return fail(start, "unterminated string; expected a closing '\"'");
      char c = peek();
      if (c == '"') {
        advance();
        return true;
      }
      if (c == '\n')
        return fail(start, "unterminated string; a string cannot span lines");
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("control character in a string; escape it");
      if (c != '\\') {
        out += c;
        advance();
        continue;
      }
      advance();
      char escape = peek();
      advance();
      switch (escape) {
      case '"':
      case '\\':
      case '/':
        out += escape;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned codePoint;
        if (!parseHex4(codePoint))
          return false;
        if (codePoint >= 0xD800 && codePoint < 0xDC00) {
          unsigned low;
          if (peek() != '\\' || (advance(), peek() != 'u'))
            return fail("unpaired UTF-16 surrogate in \\u escape");
          advance();
          if (!parseHex4(low))
            return false;
          if (low < 0xDC00 || low >= 0xE000)
            return fail("invalid UTF-16 low surrogate in \\u escape");
          codePoint = 0x10000 + ((codePoint - 0xD800) << 10) + (low - 0xDC00);
        } else if (codePoint >= 0xDC00 && codePoint < 0xE000) {
          return fail("unpaired UTF-16 surrogate in \\u escape");
        }
        appendUtf8(out, codePoint);
        break;
      }
      default:
        return fail(std::string("unknown escape '\\") + escape +
                    "' in a string");
      }
    }
  }

  bool parseNumber(JsonValue &value) {
    size_t start = pos;
    if (peek() == '-')
      advance();
    auto digits = [&] {
      size_t before = pos;
      while (peek() >= '0' && peek() <= '9')
        advance();
      return pos > before;
    };
    if (!digits())
      return fail("expected digits in a number");
    if (peek() == '.') {
      advance();
      if (!digits())
        return fail("expected digits after '.' in a number");
    }
    if (peek() == 'e' || peek() == 'E') {
      advance();
      if (peek() == '+' || peek() == '-')
        advance();
      if (!digits())
        return fail("expected digits in a number's exponent");
    }
    std::string token(text.substr(start, pos - start));
    value.kind = JsonValue::Kind::Number;
    value.number = std::strtod(token.c_str(), nullptr);
    if (!std::isfinite(value.number))
      return fail(value.loc, "number " + token + " is out of range");
    return true;
  }

  std::string_view text;
  const std::string &file;
  DiagnosticList &diags;
  size_t pos = 0;
  unsigned line = 1, column = 1;
  bool failed = false;
};

} // namespace

std::optional<JsonValue> parseJson(std::string_view text,
                                   const std::string &file,
                                   DiagnosticList &diags) {
  return JsonReader(text, file, diags).parseDocument();
}

} // namespace ascendprec::policy
