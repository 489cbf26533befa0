//===- OptionsJson.cpp - session options written back as a file -----------===//

#include "OptionsJson.h"

#include "AscendPrec/Policy/JsonOutput.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <filesystem>

using namespace ascendprec;
namespace fs = std::filesystem;

std::string driver::effectiveOptionsJson(const policy::SessionOptions &options,
                                         const std::map<std::string, std::string> &replaced) {
  std::map<std::string, std::string> texts;
  for (const auto &[name, value] : options.all())
    texts[name] = value.text;
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
    for (const auto &[name, value] : options.all()) {
      auto replacement = replaced.find(name);
      if (replacement == replaced.end())
        write(name, value.text, /*asGiven=*/false);
      else if (!replacement->second.empty())
        write(name, replacement->second, /*asGiven=*/true);
    }
    for (const auto &[name, value] : replaced)
      if (!texts.count(name) && !value.empty())
        write(name, value, /*asGiven=*/true);
  });
  os << "\n";
  return text;
}
