//===- AtcOptions.cpp - ATC command-line options the driver applies -------===//

#include "AtcOptions.h"

#include <filesystem>
#include <map>

namespace fs = std::filesystem;

namespace ascendprec::driver {

namespace {
const policy::SourceLoc kCommandLine{"<command line>"};
std::string quotedList(const std::vector<std::string> &items) {
  std::string text;
  for (size_t i = 0; i < items.size(); ++i)
    text += (i ? ", '" : "'") + policy::escapeForDisplay(items[i]) + "'";
  return text;
}
} // namespace

std::optional<std::string> modelFromArguments(const policy::ParsedCommandLine &parsed,
                                              policy::DiagnosticList &diags) {
  const policy::OptionValue *model = parsed.options.get("model");
  std::vector<std::string> given = parsed.positional;
  if (model) {
    std::error_code ec;
    bool same = !given.empty() && fs::equivalent(given.front(), model->text, ec);
    if (!given.empty() && !same) {
      diags.error(model->loc,
                  "--model='" + policy::escapeForDisplay(model->text) +
                      "' and the model argument '" +
                      policy::escapeForDisplay(given.front()) + "' differ; give one",
                  "OP-1");
      return std::nullopt;
    }
    if (given.empty())
      given.push_back(model->text);
  }
  if (given.size() != 1) {
    diags.error(kCommandLine,
                given.empty() ? "no model given; usage: prec-compile MODEL.onnx|MODEL.mlir "
                                "--soc_version=SOC --output=DIR (see --help)"
                              : "one model at a time; got " + std::to_string(given.size()) +
                                    " inputs: " + quotedList(given) +
                                    " (options take '=' and two dashes: --output=DIR)",
                "OP-1");
    return std::nullopt;
  }
  bool isOnnx = fs::path(given.front()).extension() == ".onnx";
  if (const policy::OptionValue *framework = parsed.options.get("framework")) {
    static const std::map<std::string, std::string> names = {
        {"0", "Caffe"}, {"1", "MindSpore"}, {"3", "TensorFlow"}, {"5", "ONNX"}};
    auto it = names.find(framework->text);
    if (framework->text != "5") {
      diags.error(framework->loc,
                  "--framework=" + framework->text +
                      (it != names.end() ? " (" + it->second + ")" : "") +
                      " is not supported: prec-compile reads ONNX models (--framework=5) "
                      "and ascend-dialect .mlir files; export the model to ONNX first",
                  "OP-1");
      return std::nullopt;
    }
    if (!isOnnx) {
      diags.error(framework->loc,
                  "--framework=5 says ONNX, but the model '" +
                      policy::escapeForDisplay(given.front()) + "' is not a .onnx file",
                  "OP-1");
      return std::nullopt;
    }
  }
  if (const policy::OptionValue *format = parsed.options.get("input_format"))
    if (isOnnx && format->text != "NCHW" && format->text != "ND" && format->text != "NCDHW") {
      diags.error(format->loc,
                  "--input_format=" + format->text +
                      " does not apply to ONNX models, whose layout is NCHW; ATC accepts "
                      "NCHW, ND or NCDHW with --framework=5",
                  "OP-1");
      return std::nullopt;
    }
  return given.front();
}

LogFilter::LogFilter(const policy::SessionOptions &options) {
  std::string level = options.get("log") ? options.get("log")->text : "warning";
  warnings = level == "debug" || level == "info" || level == "warning";
}

bool LogFilter::shows(policy::Severity severity) const {
  // Errors always show: a failed run must say why.
  return severity == policy::Severity::Error || warnings;
}

} // namespace ascendprec::driver
