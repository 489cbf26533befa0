//===- CannPassOptions.cpp - CANN's options as pass options ---------------===//

#include "AscendPrec/Dialect/Ascend/Transforms/CannPassOptions.h"
#include "AscendPrec/Policy/Options.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

namespace {
template <typename DeclareFn>
void declareFromTable(DeclareFn declare) {
  for (const ::ascendprec::policy::OptionSpec &spec : ::ascendprec::policy::optionSpecs())
    if (spec.passOption)
      declare(spec); // the table is static: its strings outlive the options
}
} // namespace

CannPassOptions::CannPassOptions(Pass &pass) {
  declareFromTable([&](const ::ascendprec::policy::OptionSpec &spec) {
    options.push_back(std::make_unique<Pass::Option<std::string>>(
        pass, spec.name, llvm::cl::desc(spec.help)));
  });
}

CannPassOptions::CannPassOptions(mlir::detail::PassOptions &pipelineOptions) {
  declareFromTable([&](const ::ascendprec::policy::OptionSpec &spec) {
    options.push_back(std::make_unique<StringOption>(pipelineOptions, spec.name,
                                                     llvm::cl::desc(spec.help)));
  });
}

CannOptionValues CannPassOptions::values() const {
  CannOptionValues result;
  for (const auto &option : options)
    if (!option->getValue().empty())
      result.emplace_back(option->ArgStr.str(), option->getValue());
  return result;
}

bool CannPassOptions::assign(const CannOptionValues &values) {
  std::vector<std::pair<StringOption *, const std::string *>> updates;
  for (const auto &nameAndValue : values) {
    auto it = llvm::find_if(
        options, [&](const auto &option) { return option->ArgStr == nameAndValue.first; });
    if (it == options.end())
      return false;
    updates.emplace_back(it->get(), &nameAndValue.second);
  }
  // Through the option's parser, as the pipeline text would set it, so the
  // option counts as given and appears when the pipeline is printed.
  for (const auto &[option, value] : updates)
    if (option->addOccurrence(/*pos=*/0, option->ArgStr, *value))
      return false;
  return true;
}
