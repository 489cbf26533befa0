//===- SearchOutput.cpp - what a precision search writes and prints -------===//
//
// search/ (options.json, keep_dtype.cfg, modify_mixlist.json,
// report.lock.cfg, search.json), the terminal summary and the HTML
// report's section, from a SearchOutcome.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Session/SearchOutput.h"

#include "AscendPrec/Session/OutputFolder.h"
#include "AscendPrec/Session/OptionsJson.h"

#include "AscendPrec/Policy/ConfigFiles.h"
#include "AscendPrec/Policy/JsonOutput.h"
#include "AscendPrec/Report/TextWrap.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::session;
namespace fs = std::filesystem;

std::vector<std::pair<std::string, std::string>>
session::searchFiles(const SearchOutcome &outcome, const policy::SessionOptions &effectiveOptions,
                    const SearchSettings &settings) {
  std::vector<std::pair<std::string, std::string>> files;
  std::vector<std::string> header = {
      kSearchFileHeader, "for the target " + settings.target.str() + " under " + outcome.precisionMode +
                   " on " + outcome.plan.socVersion};
  auto [keep, blackTypes] = editsByFile(outcome.edits, outcome.typesInMixList);
  std::map<std::string, std::string> replaced = {{"precision_mode", ""},
                                                 {"precision_mode_v2", ""}};
  replaced[outcome.modeOption] = outcome.precisionMode;
  if (!keep.empty()) {
    std::vector<std::string> keepHeader = header;
    if (!outcome.userKeepDTypeText.empty())
      keepHeader.insert(keepHeader.begin(), "(the lines above are your own keep_dtype file's)");
    files.push_back({"keep_dtype.cfg",
                     policy::keepDTypeFileText(keep, outcome.userKeepDTypeText, keepHeader)});
    replaced["keep_dtype"] = "keep_dtype.cfg";
  }
  if (!blackTypes.empty()) {
    files.push_back({"modify_mixlist.json", policy::blackListFileText(blackTypes, header)});
    replaced["modify_mixlist"] = "modify_mixlist.json";
  }
  files.push_back({"options.json", effectiveOptionsJson(effectiveOptions, replaced)});
  std::string lockfile;
  llvm::raw_string_ostream lock(lockfile);
  report::writeReportLockfile(outcome.plan, lock);
  files.push_back({"report.lock.cfg", lockfile});
  return files;
}

namespace {

/// What the search did with a step's plan: a pruning step's op was
/// "dropped" (the search went on without it) or "kept" in fp32; a raise the
/// search did not go on from is "not used".
std::string stepVerdict(const SearchStep &step, bool first) {
  if (first)
    return "";
  if (step.action.rfind("try without", 0) == 0)
    return step.kept ? "dropped" : "kept";
  return step.kept ? "" : "not used";
}

/// "raise: /blk.0/attn/q/MatMul, /blk.0/attn/k/MatMul +3 more" in `width`
/// columns: whole names while they fit, a name too long for the column cut
/// in its middle so that its distinguishing end stays (two steps never
/// read alike).
std::string stepChange(const SearchStep &step, size_t width) {
  std::string text = step.action;
  for (size_t i = 0; i < step.changed.size(); ++i) {
    std::string name = policy::escapeForDisplay(step.changed[i]);
    std::string separator = i ? ", " : ": ";
    size_t rest = step.changed.size() - i - 1;
    std::string more = rest ? " +" + std::to_string(rest) + " more" : "";
    if (text.size() + separator.size() + name.size() + more.size() <= width) {
      text += separator + name;
      continue;
    }
    std::string allLeft = " +" + std::to_string(rest + 1) + " more";
    // The first name is worth a cut; a later one is counted instead.
    if (i > 0 && text.size() + allLeft.size() <= width)
      return text + allLeft;
    size_t room = width > text.size() + separator.size() + more.size()
                      ? width - text.size() - separator.size() - more.size()
                      : 0;
    if (room < 8)
      return report::shortenMiddle(text + allLeft, width);
    return text + separator + report::shortenMiddle(name, room) + more;
  }
  return report::shortenMiddle(text, width);
}

/// The result in a few words: "force_fp16 + 3 ops in fp32 (keep_dtype)".
std::string resultName(const SearchOutcome &outcome) {
  if (outcome.edits.empty())
    return outcome.precisionMode;
  std::string text = outcome.precisionMode + " +";
  if (!outcome.edits.opTypes.empty()) {
    text += " op types";
    for (const std::string &type : outcome.edits.opTypes)
      text += " " + type;
    text += outcome.typesInMixList ? " (modify_mixlist)" : " (keep_dtype)";
    if (!outcome.edits.nodeNames.empty())
      text += " +";
  }
  if (!outcome.edits.nodeNames.empty())
    text += " " + std::to_string(outcome.edits.nodeNames.size()) +
            (outcome.edits.nodeNames.size() == 1 ? " op" : " ops") + " (keep_dtype)";
  return text;
}

} // namespace

std::string session::searchSummary(const SearchOutcome &outcome, const SearchSettings &settings,
                                  const std::vector<report::ReportModeComparison> &modes,
                                  const std::vector<std::vector<OutputAccuracy>> &modeOutputs,
                                  const std::string &inputsFrom, unsigned width) {
  std::string text;
  llvm::raw_string_ostream os(text);
  const std::vector<policy::AccuracyCondition> &conditions = settings.target.conditions;
  os << "Precision search for " << policy::escapeForDisplay(settings.target.str())
     << " (vs the fp32 reference; inputs: " << inputsFrom << "), from "
     << outcome.startMode << ", " << outcome.evaluations << " of " << settings.budget
     << " runs:\n";
  auto valueCells = [&](const std::vector<OutputAccuracy> &outputs) {
    std::string cells;
    std::vector<double> values = targetValues(settings.target, outputs);
    for (size_t c = 0; c < conditions.size(); ++c) {
      std::string cell = formatTargetValue(conditions[c].metric, values[c]);
      cells += std::string(llvm::formatv("  {0,-13}", cell));
    }
    return cells;
  };
  std::string heads;
  for (const policy::AccuracyCondition &condition : conditions) {
    std::string head = (condition.output.empty() ? "" : policy::escapeForDisplay(condition.output) + ":") +
                       policy::accuracyMetricName(condition.metric);
    heads += std::string(llvm::formatv("  {0,-13}", head.substr(0, 13)));
  }
  // The change column takes what the other columns leave of the width: the
  // step (8), in fp32 and est us (18), 15 per condition and the target's
  // longest cell, "met, dropped  <- result" (25).
  const size_t changeWidth = std::clamp<int>(
      static_cast<int>(width) - 51 - 15 * static_cast<int>(conditions.size()), 24, 80);
  os << "  " << llvm::formatv("{0,4}", "step") << "  "
     << llvm::left_justify("change", changeWidth) << " "
     << llvm::formatv("{0,7} {1,9}", "in fp32", "est us") << heads << "  target\n";
  for (size_t i = 0; i < outcome.steps.size(); ++i) {
    const SearchStep &step = outcome.steps[i];
    os << "  " << llvm::formatv("{0,4}", i) << "  "
       << llvm::left_justify(stepChange(step, changeWidth), changeWidth) << " "
       << llvm::formatv("{0,7} ", step.raisedOps);
    if (!step.note.empty()) {
      os << "could not run: " << step.note << "\n";
      continue;
    }
    std::string verdict = stepVerdict(step, i == 0);
    os << llvm::formatv("{0,9:F1}", step.estDeviceUs) << valueCells(step.outputs) << "  "
       << (step.meets ? "met" : "missed") << (verdict.empty() ? "" : ", " + verdict)
       << (static_cast<int>(i) == outcome.resultStep ? "  <- result" : "") << "\n";
  }
  for (const std::string &note : outcome.notes)
    os << "  note: " << note << "\n";
  if (!outcome.hint.empty())
    os << "  note: " << outcome.hint << "\n";

  os << "\n";
  switch (outcome.kind) {
  case SearchOutcome::Kind::Found:
    os << "Found: " << resultName(outcome)
       << (outcome.edits.empty() ? " meets the target as it is" : "") << ", est. "
       << llvm::formatv("{0:F1}", outcome.estDeviceUs) << " us on the device;";
    break;
  case SearchOutcome::Kind::BuiltInMode:
    os << "Result: use " << outcome.precisionMode << " (" << outcome.message << "), est. "
       << llvm::formatv("{0:F1}", outcome.estDeviceUs) << " us;";
    break;
  default:
    return text;
  }
  std::vector<double> values = targetValues(settings.target, outcome.outputs);
  for (size_t c = 0; c < conditions.size(); ++c)
    os << (c ? ", " : " ") << conditionValueText(conditions[c], values[c]);
  os << "\n";

  // Where the result sits among the built-in modes.
  os << "Against the built-in modes:\n"
     << llvm::formatv("  {0,-34} {1,9}", "plan", "est us") << heads << "  target\n";
  for (size_t i = 0; i < modes.size(); ++i) {
    if (!modes[i].note.empty() || i >= modeOutputs.size())
      continue;
    os << llvm::formatv("  {0,-34} {1,9:F1}", modes[i].mode, modes[i].estDeviceUs)
       << valueCells(modeOutputs[i]) << "  "
       << (meetsTarget(settings.target, modeOutputs[i]) ? "met" : "missed") << "\n";
  }
  if (outcome.kind == SearchOutcome::Kind::Found)
    os << llvm::formatv("  {0,-34} {1,9:F1}", "found plan", outcome.estDeviceUs)
       << valueCells(outcome.outputs) << "  met\n";
  return text;
}

std::string session::searchJson(const SearchOutcome &outcome, const SearchSettings &settings,
                               const std::vector<report::ReportModeComparison> &modes,
                               const std::vector<std::vector<OutputAccuracy>> &modeOutputs,
                               const std::string &soc, const std::string &inputsFrom) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os, 2);
  auto number = [&](const char *key, double value) {
    if (std::isfinite(value))
      json.attribute(key, value);
    else
      json.attribute(key, nullptr);
  };
  auto outputsArray = [&](const char *key, const std::vector<OutputAccuracy> &outputs) {
    json.attributeArray(key, [&] {
      for (const OutputAccuracy &output : outputs)
        json.object([&] {
          json.attribute("name", policy::jsonText(output.name));
          number("cosine", output.vsReference.cosine);
          number("max_rel_err", output.vsReference.maxRelErr);
          number("max_abs_err", output.vsReference.maxAbsErr);
          number("rel_rmse", output.vsReference.relRmse);
        });
    });
  };
  auto stringArray = [&](const char *key, const std::vector<std::string> &items) {
    json.attributeArray(key, [&] {
      for (const std::string &item : items)
        json.value(policy::jsonText(item));
    });
  };
  const char *kinds[] = {"found", "built_in_mode", "unreachable", "failed"};
  json.object([&] {
    json.attribute("soc_version", soc);
    json.attribute("target", policy::jsonText(settings.target.str()));
    json.attribute("inputs", policy::jsonText(inputsFrom));
    json.attribute("start_mode", outcome.startMode);
    json.attribute("budget", static_cast<int64_t>(settings.budget));
    json.attribute("evaluations", static_cast<int64_t>(outcome.evaluations));
    if (outcome.resultStep >= 0)
      json.attribute("result_step", static_cast<int64_t>(outcome.resultStep));
    json.attributeArray("steps", [&] {
      for (const SearchStep &step : outcome.steps)
        json.object([&] {
          json.attribute("action", policy::jsonText(step.action));
          stringArray("changed", step.changed);
          json.attribute("ops_in_fp32", static_cast<int64_t>(step.raisedOps));
          if (!step.note.empty()) {
            json.attribute("note", policy::jsonText(step.note));
            return;
          }
          json.attribute("est_device_us", step.estDeviceUs);
          outputsArray("outputs", step.outputs);
          json.attribute("meets_target", step.meets);
          json.attribute("kept", step.kept);
        });
    });
    json.attributeObject("result", [&] {
      json.attribute("kind", kinds[static_cast<int>(outcome.kind)]);
      if (!outcome.message.empty())
        json.attribute("message", policy::jsonText(outcome.message));
      if (!outcome.hint.empty())
        json.attribute("hint", policy::jsonText(outcome.hint));
      if (outcome.kind != SearchOutcome::Kind::Found &&
          outcome.kind != SearchOutcome::Kind::BuiltInMode)
        return;
      json.attribute(outcome.modeOption, outcome.precisionMode);
      stringArray("keep_dtype_ops", outcome.edits.nodeNames);
      stringArray(outcome.typesInMixList ? "black_list_op_types" : "keep_dtype_op_types",
                  outcome.edits.opTypes);
      json.attribute("est_device_us", outcome.estDeviceUs);
      outputsArray("outputs", outcome.outputs);
    });
    json.attributeArray("modes", [&] {
      for (size_t i = 0; i < modes.size(); ++i)
        json.object([&] {
          json.attribute("precision_mode", modes[i].mode);
          if (!modes[i].note.empty() || i >= modeOutputs.size()) {
            json.attribute("note", policy::jsonText(modes[i].note));
            return;
          }
          json.attribute("est_device_us", modes[i].estDeviceUs);
          outputsArray("outputs", modeOutputs[i]);
          json.attribute("meets_target", meetsTarget(settings.target, modeOutputs[i]));
        });
    });
    stringArray("notes", outcome.notes);
  });
  os << "\n";
  return text;
}

std::string session::writeAndCheckSearchFiles(const std::string &folder,
                                             const SearchOutcome &outcome,
                                             const policy::SessionOptions &effectiveOptions,
                                             const SearchSettings &settings, ModuleOp imported,
                                             const std::string &searchJsonText) {
  std::error_code ec;
  fs::create_directory(folder, ec);
  if (ec)
    return "cannot create " + folder + ": " + ec.message();
  std::vector<std::pair<std::string, std::string>> files =
      searchFiles(outcome, effectiveOptions, settings);
  files.push_back({"search.json", searchJsonText});
  for (const auto &[name, text] : files) {
    std::string error;
    if (!writeTextFile((fs::path(folder) / name).string(), text, error))
      return error;
  }
  // Read back exactly as `--session_options=search/options.json` would.
  policy::SessionOptions reread;
  policy::DiagnosticList diags;
  if (!reread.loadSessionFile((fs::path(folder) / "options.json").string(), diags))
    return "internal error: search/options.json does not read back: " + diags.format();
  std::optional<policy::Policy> policy = policy::Policy::build(reread, diags);
  if (!policy)
    return "internal error: search/options.json does not build a policy: " + diags.format();
  report::ReportData replanned;
  std::string why, difference;
  if (!planAndLower(imported, std::make_shared<const policy::Policy>(std::move(*policy)),
                    settings.planning, replanned, why))
    return "internal error: the plan of search/options.json fails: " + why;
  if (!samePlan(replanned, outcome.plan, difference))
    return "internal error: search/options.json does not reproduce the plan found: " +
           difference;
  return "";
}

report::ReportSearch
session::searchReport(const SearchOutcome &outcome, const SearchSettings &settings,
                     const std::vector<report::ReportModeComparison> &modes,
                     const std::vector<std::vector<OutputAccuracy>> &modeOutputs) {
  auto valuesText = [&](const std::vector<OutputAccuracy> &outputs) {
    std::vector<double> values = targetValues(settings.target, outputs);
    std::string text;
    for (size_t c = 0; c < values.size(); ++c)
      text += (c ? ", " : "") + conditionValueText(settings.target.conditions[c], values[c]);
    return text;
  };
  report::ReportSearch search;
  search.target = settings.target.str();
  search.startMode = outcome.startMode;
  search.result = resultName(outcome);
  if (outcome.kind == SearchOutcome::Kind::BuiltInMode)
    search.message = outcome.message;
  search.estDeviceUs = outcome.estDeviceUs;
  for (const OutputAccuracy &output : outcome.outputs)
    search.relRmse = std::max(search.relRmse, output.vsReference.relRmse);
  search.values = valuesText(outcome.outputs);
  for (const SearchStep &step : outcome.steps) {
    report::ReportSearchStep row;
    row.change = stepChange(step, 200);
    row.opsInFp32 = static_cast<int64_t>(step.raisedOps);
    row.estDeviceUs = step.estDeviceUs;
    row.note = step.note;
    if (step.note.empty())
      row.values = valuesText(step.outputs);
    row.meets = step.meets;
    row.verdict = stepVerdict(step, search.steps.empty());
    row.result = static_cast<int>(search.steps.size()) == outcome.resultStep;
    search.steps.push_back(std::move(row));
  }
  const std::vector<policy::AccuracyCondition> &conditions = settings.target.conditions;
  if (conditions.size() == 1 && conditions[0].output.empty() &&
      conditions[0].metric == policy::AccuracyMetric::RelRmse)
    search.relRmseBound = conditions[0].bound;
  for (size_t i = 0; i < modes.size(); ++i)
    search.modeMeets.push_back(modes[i].note.empty() && i < modeOutputs.size() &&
                               meetsTarget(settings.target, modeOutputs[i]));
  return search;
}
