//===- SessionOptions.cpp - option values from argv and JSON (OP-1) -------===//

#include "AscendPrec/Policy/Json.h"
#include "AscendPrec/Policy/Options.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace fs = std::filesystem;

namespace ascendprec::policy {

std::vector<std::string> splitList(const std::string &text, char separator) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(separator, start);
    std::string item = text.substr(
        start, end == std::string::npos ? std::string::npos : end - start);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty())
      items.push_back(item);
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return items;
}

static std::vector<std::string> allOptionNames() {
  std::vector<std::string> names;
  for (const OptionSpec &spec : optionSpecs())
    names.push_back(spec.name);
  return names;
}

/// `extra`: the tool's own flags (--output, --run, ...), also candidates.
static void reportUnknownOption(const std::string &name, const SourceLoc &loc,
                                const std::string &prefix, DiagnosticList &diags,
                                const std::vector<std::string> &extra = {}) {
  std::vector<std::string> candidates = allOptionNames();
  candidates.insert(candidates.end(), extra.begin(), extra.end());
  std::vector<std::string> meant = likelyMeant(name, candidates);
  for (std::string &option : meant)
    option = "'" + prefix + option + "'";
  diags.error(loc, "unknown option '" + prefix + name + "'" +
                       (meant.empty() ? "; see --help for the options"
                                      : "; did you mean " + joinChoices(meant) + "?"),
              "OP-1");
}

/// Checks `text` against the option's type and normalizes it.
static bool normalizeValue(const OptionSpec &spec, std::string &text,
                           const SourceLoc &loc, DiagnosticList &diags) {
  switch (spec.type) {
  case OptionType::Bool:
    if (text == "true" || text == "True" || text == "1")
      text = "true";
    else if (text == "false" || text == "False" || text == "0")
      text = "false";
    else {
      diags.error(loc, "option '" + spec.name +
                           "' takes true or false, found '" + text + "'",
                  spec.rule);
      return false;
    }
    return true;
  case OptionType::Int: {
    size_t digits = text.size() > 1 && text[0] == '-' ? 1 : 0;
    bool isInt = text.size() > digits && text.size() < 19;
    for (size_t i = digits; isInt && i < text.size(); ++i)
      isInt = text[i] >= '0' && text[i] <= '9';
    if (!isInt) {
      diags.error(loc, "option '" + spec.name + "' takes an integer, found '" +
                           text + "'",
                  spec.rule);
      return false;
    }
    [[fallthrough]];
  }
  case OptionType::Enum:
    if (!spec.allowedValues.empty() &&
        std::find(spec.allowedValues.begin(), spec.allowedValues.end(), text) ==
            spec.allowedValues.end()) {
      std::string hint = closestMatch(text, spec.allowedValues);
      // fp16, origin, mixed_float16, ... are precision_mode_v2's spellings.
      if (spec.name == "precision_mode")
        if (const OptionSpec *v2 = findOptionSpec("precision_mode_v2"))
          if (std::find(v2->allowedValues.begin(), v2->allowedValues.end(), text) !=
              v2->allowedValues.end()) {
            diags.error(loc, "'" + text + "' is a value of --precision_mode_v2, not of "
                             "--precision_mode; write --precision_mode_v2=" + text,
                        spec.rule);
            return false;
          }
      // No value a letter or two off: the values that contain what was
      // written ('bf16' -> allow_mix_precision_bf16, allow_fp32_to_bf16).
      std::vector<std::string> containing;
      if (hint.empty() && text.size() >= 3)
        for (const std::string &value : spec.allowedValues)
          if (llvm::StringRef(value).contains_insensitive(text))
            containing.push_back("'" + value + "'");
      std::string meant = !hint.empty() ? "'" + hint + "'" : joinChoices(containing);
      diags.error(loc, "invalid value '" + text + "' for option '" + spec.name +
                           "'; valid values: " +
                           joinChoices(spec.allowedValues, ", ") +
                           (meant.empty() ? "" : " (did you mean " + meant + "?)"),
                  spec.rule);
      return false;
    }
    return true;
  case OptionType::Path:
  case OptionType::Directory:
    if (text.empty()) {
      diags.error(loc, "option '" + spec.name + "' needs a path", spec.rule);
      return false;
    }
    return true;
  case OptionType::String:
    return true;
  }
  return true;
}

bool SessionOptions::set(const std::string &name, const std::string &rawText,
                         const SourceLoc &loc, bool fromCommandLine,
                         DiagnosticList &diags) {
  const OptionSpec *spec = findOptionSpec(name);
  if (!spec) {
    reportUnknownOption(name, loc, fromCommandLine ? "--" : "", diags);
    return false;
  }
  std::string text = rawText;
  if (!normalizeValue(*spec, text, loc, diags))
    return false;
  auto it = values.find(name);
  if (it != values.end()) {
    // OP-1: the command line overrides the session file.
    if (it->second.fromCommandLine && !fromCommandLine)
      return true;
    if (it->second.fromCommandLine && fromCommandLine)
      diags.warning(loc, "option '--" + name + "' is given twice; the last "
                         "value, '" + text + "', is used",
                    "OP-1");
  }
  values[name] = OptionValue{text, loc, fromCommandLine};
  return true;
}

const OptionValue *SessionOptions::get(const std::string &name) const {
  auto it = values.find(name);
  return it == values.end() ? nullptr : &it->second;
}

bool SessionOptions::parseCommandLine(
    const std::vector<std::string> &args, DiagnosticList &diags,
    std::vector<std::string> *positional,
    const std::vector<std::string> &extraFlags,
    std::map<std::string, std::string> *toolFlags) {
  size_t errorsBefore = diags.errorCount();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    SourceLoc loc{"<command line>", 0, static_cast<unsigned>(i + 1)};
    if (arg.size() < 3 || arg.compare(0, 2, "--")) {
      if (positional)
        positional->push_back(arg);
      else
        diags.error(loc, "unexpected argument '" + arg +
                             "'; options are written --name=value",
                    "OP-1");
      continue;
    }
    size_t equals = arg.find('=');
    std::string name = arg.substr(2, equals == std::string::npos
                                         ? std::string::npos
                                         : equals - 2);
    std::string value =
        equals == std::string::npos ? std::string() : arg.substr(equals + 1);
    if (std::find(extraFlags.begin(), extraFlags.end(), name) !=
        extraFlags.end()) {
      if (toolFlags)
        (*toolFlags)[name] = equals == std::string::npos ? "true" : value;
      continue;
    }
    if (equals == std::string::npos) {
      if (findOptionSpec(name))
        diags.error(loc, "option '--" + name + "' needs a value: --" + name +
                             "=VALUE",
                    "OP-1");
      else
        reportUnknownOption(name, loc, "--", diags, extraFlags);
      continue;
    }
    if (!findOptionSpec(name)) {
      reportUnknownOption(name, loc, "--", diags, extraFlags);
      continue;
    }
    set(name, value, loc, /*fromCommandLine=*/true, diags);
  }
  return diags.errorCount() == errorsBefore;
}

bool SessionOptions::loadSessionFile(const std::string &path,
                                     DiagnosticList &diags) {
  std::string text;
  if (!readFile(path, text, diags, SourceLoc{"<command line>"}, "OP-1",
                "session_options"))
    return false;
  return loadSessionText(text, path, diags);
}

bool SessionOptions::loadSessionText(std::string_view text,
                                     const std::string &path,
                                     DiagnosticList &diags) {
  size_t errorsBefore = diags.errorCount();
  std::optional<JsonValue> root = parseJson(text, path, diags);
  if (!root)
    return false;
  if (!root->isObject()) {
    diags.error(root->loc, "a session-options file must be a JSON object of "
                           "option names to values, found " + root->kindName(),
                "OP-1");
    return false;
  }
  fs::path base = fs::path(path).parent_path();
  for (size_t i = 0; i < root->object.size(); ++i) {
    const auto &[name, value] = root->object[i];
    const SourceLoc &keyLoc = root->keyLocs[i];
    const OptionSpec *spec = findOptionSpec(name);
    if (!spec) {
      reportUnknownOption(name, keyLoc, "", diags);
      continue;
    }
    std::string valueText;
    switch (spec->type) {
    // TF adapter users write every value as a string ("graph_run_mode": "0"):
    // a string is checked as the same text on the command line would be.
    case OptionType::Bool:
      if (value.isString()) {
        valueText = value.string;
        break;
      }
      if (value.kind != JsonValue::Kind::Bool) {
        diags.error(value.loc, "option '" + name + "' takes true or false, "
                                                   "found " + value.kindName(),
                    spec->rule);
        continue;
      }
      valueText = value.boolean ? "true" : "false";
      break;
    case OptionType::Int:
      if (value.isString()) {
        valueText = value.string;
        break;
      }
      if (value.kind != JsonValue::Kind::Number ||
          value.number != std::floor(value.number) ||
          std::fabs(value.number) > 1e15) {
        diags.error(value.loc, "option '" + name + "' takes an integer, found " +
                                   value.kindName(),
                    spec->rule);
        continue;
      }
      valueText = std::to_string(static_cast<long long>(value.number));
      break;
    default:
      if (!value.isString()) {
        diags.error(value.loc, "option '" + name + "' takes a string, found " +
                                   value.kindName(),
                    spec->rule);
        continue;
      }
      valueText = value.string;
      // Relative paths resolve against the session file's folder.
      if ((spec->type == OptionType::Path ||
           spec->type == OptionType::Directory) &&
          !valueText.empty() && fs::path(valueText).is_relative())
        valueText = (base / valueText).lexically_normal().string();
    }
    set(name, valueText, value.loc, /*fromCommandLine=*/false, diags);
  }
  return diags.errorCount() == errorsBefore;
}

} // namespace ascendprec::policy
