//===- OptionsJson.cpp - session options written back as a file -----------===//

#include "AscendPrec/Session/OptionsJson.h"

#include "AscendPrec/Policy/JsonOutput.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <filesystem>

using namespace ascendprec;
namespace fs = std::filesystem;

std::string session::effectiveOptionsJson(const policy::SessionOptions &options,
                                         const std::map<std::string, std::string> &replaced) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    auto write = [&](const std::string &name, const std::string &value, bool asGiven) {
      const policy::OptionSpec *spec = policy::findOptionSpec(name);
      if (spec && spec->type == policy::OptionType::Int)
        json.attribute(name, static_cast<int64_t>(std::stoll(value)));
      else if (spec && spec->type == policy::OptionType::Bool)
        json.attribute(name, value == "true");
      else if (!asGiven && spec &&
               (spec->type == policy::OptionType::Path ||
                spec->type == policy::OptionType::Directory))
        json.attribute(name, policy::jsonText(fs::absolute(value).lexically_normal().string()));
      else
        json.attribute(name, policy::jsonText(value));
    };
    // One object in name order, the replacements merged in.
    std::map<std::string, std::pair<std::string, bool>> merged;
    for (const auto &[name, value] : options.all())
      merged[name] = {value.text, /*asGiven=*/false};
    for (const auto &[name, value] : replaced) {
      if (value.empty())
        merged.erase(name);
      else
        merged[name] = {value, /*asGiven=*/true};
    }
    for (const auto &[name, value] : merged)
      write(name, value.first, value.second);
  });
  os << "\n";
  return text;
}
