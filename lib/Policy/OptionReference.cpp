//===- OptionReference.cpp - the option table as Markdown -----------------===//

#include "AscendPrec/Policy/OptionReference.h"
#include "AscendPrec/Policy/Options.h"

namespace ascendprec::policy {

static std::string typeName(const OptionSpec &spec) {
  switch (spec.type) {
  case OptionType::String:
    return "string";
  case OptionType::Enum:
    return "one of the values";
  case OptionType::Int:
    return "integer";
  case OptionType::Bool:
    return "true / false";
  case OptionType::Path:
    return "file path";
  case OptionType::Directory:
    return "directory";
  }
  return "string";
}

std::string optionReferenceMarkdown() {
  std::string out =
      "<!-- Generated from lib/Policy/OptionTable.cpp by "
      "scripts/update-docs.sh; do not edit. -->\n"
      "# Options\n\n"
      "Every option AscendPrec accepts, spelled as CANN spells it. On the "
      "command line: `--name=value`; in a session-options file: the same "
      "names as JSON keys (integers as numbers, booleans as `true`/`false`, "
      "everything else as strings; relative paths resolve against the file's "
      "folder). The command line overrides the file (OP-1). Unknown names "
      "are errors with a suggestion.\n\n"
      "Options marked *(pass option)* are also options of prec-opt's "
      "`prec-plan-precision` pass and `prec-precision-pipeline` pipeline, with "
      "the same names (`--prec-plan-precision=\"soc_version=Ascend910 "
      "precision_mode=force_fp16\"`).\n";
  std::string group;
  for (const OptionSpec &spec : optionSpecs()) {
    if (spec.group != group) {
      group = spec.group;
      out += "\n## " + group + "\n\n| option | type | values | rule | what it does |\n"
             "| --- | --- | --- | --- | --- |\n";
    }
    std::string values;
    for (size_t i = 0; i < spec.allowedValues.size(); ++i)
      values += (i ? ", " : "") + ("`" + spec.allowedValues[i] + "`");
    out += "| `" + spec.name + "`" + (spec.passOption ? " *(pass option)*" : "") + " | " +
           typeName(spec) + " | " +
           (values.empty() ? "" : values) + " | " + spec.rule + " | " +
           spec.help + " |\n";
  }
  return out;
}

} // namespace ascendprec::policy
