//===- AccuracyTarget.cpp - --search-precision's accuracy target ----------===//

#include "AscendPrec/Policy/AccuracyTarget.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ascendprec::policy {

namespace {

struct MetricSpelling {
  const char *name;
  AccuracyMetric metric;
};
constexpr MetricSpelling kMetrics[] = {{"cosine", AccuracyMetric::Cosine},
                                       {"max_rel_err", AccuracyMetric::MaxRelErr},
                                       {"max_abs_err", AccuracyMetric::MaxAbsErr},
                                       {"rel_rmse", AccuracyMetric::RelRmse}};

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  return text;
}

std::string formatBound(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}

const SourceLoc kCommandLine{"<command line>"};
constexpr const char *kGrammar =
    "expected [OUTPUT:]METRIC>=VALUE or [OUTPUT:]METRIC<=VALUE, METRIC one of cosine, "
    "max_rel_err, max_abs_err, rel_rmse (e.g. --search-precision=\"cosine>=0.9999\")";

/// One comma-separated condition; `shown` is the condition as written.
std::optional<AccuracyCondition> parseCondition(std::string_view text, DiagnosticList &diags) {
  std::string shown = escapeForDisplay(text);
  auto fail = [&](const std::string &why) {
    diags.error(kCommandLine, "--search-precision: '" + shown + "': " + why);
    return std::nullopt;
  };
  size_t op = text.find(">=");
  size_t other = text.find("<=");
  if (op == std::string_view::npos && other == std::string_view::npos) {
    // `--search-precision=cosine>=0.9999` unquoted: the shell took `>=0.9999`
    // as a redirection and left the metric alone.
    for (const MetricSpelling &spelling : kMetrics)
      if (trim(text.substr(text.rfind(':') == std::string_view::npos ? 0 : text.rfind(':') + 1)) ==
          spelling.name)
        return fail(std::string("no >= or <=; quote the target, as in "
                                "--search-precision=\"") +
                    spelling.name + (higherIsBetter(spelling.metric) ? ">=" : "<=") +
                    "VALUE\": unquoted, the shell reads > and < as redirections");
    return fail(std::string("no >= or <=; ") + kGrammar);
  }
  if (op != std::string_view::npos && other != std::string_view::npos)
    return fail("more than one comparison; write each condition on its own, joined by commas");
  bool atLeast = op != std::string_view::npos;
  if (!atLeast)
    op = other;
  std::string_view left = trim(text.substr(0, op)), right = trim(text.substr(op + 2));

  AccuracyCondition condition;
  // The output name may itself hold colons: the metric follows the last one.
  size_t colon = left.rfind(':');
  std::string_view metricName = left;
  if (colon != std::string_view::npos) {
    condition.output = std::string(trim(left.substr(0, colon)));
    metricName = trim(left.substr(colon + 1));
    if (condition.output.empty())
      return fail("empty output name before ':'; leave out 'OUTPUT:' to mean every output");
  }
  const MetricSpelling *found = nullptr;
  for (const MetricSpelling &spelling : kMetrics)
    if (metricName == spelling.name)
      found = &spelling;
  if (!found)
    return fail("unknown metric '" + escapeForDisplay(metricName) +
                "'; expected cosine, max_rel_err, max_abs_err or rel_rmse");
  condition.metric = found->metric;

  std::string number(right);
  char *end = nullptr;
  errno = 0;
  double bound = number.empty() ? 0 : std::strtod(number.c_str(), &end);
  // ERANGE with a finite result is an underflow (1e-310): a fine bound.
  if (number.empty() || *end != '\0' || !std::isfinite(bound))
    return fail("'" + escapeForDisplay(right) + "' is not a finite number");
  condition.bound = bound;
  condition.boundText = number;

  if (higherIsBetter(condition.metric)) {
    if (!atLeast)
      return fail("cosine similarity grows with accuracy: write cosine>=VALUE");
    if (bound <= -1 || bound > 1)
      return fail("a cosine similarity bound lies in (-1, 1]");
  } else {
    if (atLeast)
      return fail(accuracyMetricName(condition.metric) +
                  " is an error, which shrinks with accuracy: write " +
                  accuracyMetricName(condition.metric) + "<=VALUE");
    if (bound < 0)
      return fail("an error bound cannot be negative");
  }
  return condition;
}

} // namespace

std::string accuracyMetricName(AccuracyMetric metric) {
  for (const MetricSpelling &spelling : kMetrics)
    if (spelling.metric == metric)
      return spelling.name;
  return "?";
}

bool higherIsBetter(AccuracyMetric metric) { return metric == AccuracyMetric::Cosine; }

bool AccuracyCondition::holdsFor(double value) const {
  if (std::isnan(value))
    return false;
  return higherIsBetter(metric) ? value >= bound : value <= bound;
}

std::string AccuracyCondition::str() const {
  return (output.empty() ? "" : escapeForDisplay(output) + ":") + accuracyMetricName(metric) +
         (higherIsBetter(metric) ? ">=" : "<=") +
         (boundText.empty() ? formatBound(bound) : boundText);
}

std::string AccuracyTarget::str() const {
  std::string text;
  for (const AccuracyCondition &condition : conditions)
    text += (text.empty() ? "" : ",") + condition.str();
  return text;
}

std::optional<AccuracyTarget> parseAccuracyTarget(std::string_view text, DiagnosticList &diags) {
  if (trim(text).empty()) {
    diags.error(kCommandLine, std::string("--search-precision needs a target; ") + kGrammar);
    return std::nullopt;
  }
  AccuracyTarget target;
  bool ok = true;
  while (true) {
    size_t comma = text.find(',');
    std::string_view piece = trim(text.substr(0, comma));
    if (piece.empty()) {
      diags.error(kCommandLine, "--search-precision: an empty condition between commas");
      ok = false;
    } else if (std::optional<AccuracyCondition> condition = parseCondition(piece, diags)) {
      target.conditions.push_back(*condition);
    } else {
      ok = false;
    }
    if (comma == std::string_view::npos)
      break;
    text.remove_prefix(comma + 1);
  }
  if (!ok)
    return std::nullopt;
  return target;
}

} // namespace ascendprec::policy
