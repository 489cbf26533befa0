//===- ReportTable.cpp - the summary table, fitted to a terminal ----------===//
//
// report.txt has every column in full. The terminal gets the same rows
// fitted to its width: dtypes as f16/f32/bf16 (runs as "f32x4"), config
// files by name; when that is not enough the longest columns (node names
// first) shortened in the middle, where names differ least usefully
// ("/blocks.11/attn/.../MatMul"), and then the dtype columns left out.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Report/Report.h"
#include "AscendPrec/Report/TextWrap.h"

#include <cmath>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::report;

namespace {

/// Longest "name (+absorbed, ...)" the terminal table shows in full.
constexpr size_t kFusedNameLimit = 24;

std::string shortDType(const std::string &name) {
  static const std::map<std::string, std::string> names = {
      {"float16", "f16"}, {"float32", "f32"}, {"bfloat16", "bf16"}, {"double", "f64"},
      {"int8", "i8"},     {"uint8", "u8"},    {"int16", "i16"},     {"uint16", "u16"},
      {"int32", "i32"},   {"uint32", "u32"},  {"int64", "i64"},     {"uint64", "u64"},
      {"bool", "bool"},   {"hifloat8", "hif8"}};
  auto it = names.find(name);
  return it == names.end() ? name : it->second;
}

/// Short names, runs written once with a count: "f16,f32x4".
std::string shortDTypes(const std::vector<std::string> &names) {
  std::string text;
  for (size_t i = 0; i < names.size();) {
    size_t run = 1;
    while (i + run < names.size() && names[i + run] == names[i])
      ++run;
    text += (text.empty() ? "" : ",") + shortDType(names[i]) +
            (run > 1 ? "x" + std::to_string(run) : "");
    i += run;
  }
  return text;
}

/// A config file's path as its name and line ("mixlist.json:5"); report.txt
/// has the whole path.
std::string shortSource(const std::string &source) {
  size_t slash = source.rfind('/');
  return slash == std::string::npos ? source : source.substr(slash + 1);
}

/// AICore-cube -> cube, AICore-vector -> vector, AI CPU stays.
std::string shortEngine(const std::string &engine) {
  llvm::StringRef name(engine);
  return name.consume_front("AICore-") ? name.str() : engine;
}

} // namespace

namespace {

/// A column that gives way when the table is too wide: its header and the
/// narrowest it may become.
using Shrinkable = std::pair<llvm::StringRef, size_t>;

/// Column widths for `rows` (a header first) at most `width` wide in all:
/// the `shrinkable` columns, in order, give way down to their minimum
/// widths until the table fits.
std::vector<size_t> fitWidths(const std::vector<std::vector<std::string>> &rows, unsigned width,
                              ArrayRef<Shrinkable> shrinkable) {
  const std::vector<std::string> &header = rows.front();
  std::vector<size_t> widths(header.size(), 0);
  for (const auto &row : rows)
    for (size_t i = 0; i < row.size(); ++i)
      widths[i] = std::max(widths[i], row[i].size());
  // Two spaces between columns.
  const size_t gaps = 2 * (widths.size() - 1);
  for (auto [name, minimum] : shrinkable) {
    auto column = llvm::find(header, name) - header.begin();
    if (static_cast<size_t>(column) == header.size())
      continue;
    size_t total = std::accumulate(widths.begin(), widths.end(), gaps);
    if (total <= width)
      break;
    widths[column] = std::max(std::min(minimum, widths[column]),
                              widths[column] - std::min(widths[column], total - width));
  }
  return widths;
}

/// Removes from `rows`, in order, the `droppable` columns (by header) while
/// the table is wider than `width` with every shrinkable column at its
/// minimum; returns the headers removed.
std::vector<std::string> dropColumnsToFit(std::vector<std::vector<std::string>> &rows,
                                          unsigned width, ArrayRef<Shrinkable> shrinkable,
                                          ArrayRef<llvm::StringRef> droppable) {
  std::vector<std::string> dropped;
  for (llvm::StringRef name : droppable) {
    std::vector<size_t> widths = fitWidths(rows, width, shrinkable);
    if (std::accumulate(widths.begin(), widths.end(), 2 * (widths.size() - 1)) <= width)
      break;
    auto column = llvm::find(rows.front(), name) - rows.front().begin();
    if (static_cast<size_t>(column) == rows.front().size())
      continue;
    for (auto &row : rows)
      if (static_cast<size_t>(column) < row.size())
        row.erase(row.begin() + column);
    dropped.push_back(name.str());
  }
  return dropped;
}

/// "(to fit 100 columns, the inputs and outputs columns are left out: ...)"
/// for what dropColumnsToFit removed, or "".
std::string droppedColumnsNote(const std::vector<std::string> &dropped, unsigned width) {
  if (dropped.empty())
    return "";
  std::string names;
  for (size_t i = 0; i < dropped.size(); ++i)
    names += (i == 0 ? "" : i + 1 == dropped.size() ? " and " : ", ") + dropped[i];
  return wrapText("(to fit " + std::to_string(width) + " columns, the " + names +
                      (dropped.size() == 1 ? " column is" : " columns are") +
                      " left out: report.txt has them all)",
                  width) +
         "\n";
}

/// `text` cut to `width` with "..." after its first `head` characters.
std::string shortenAt(const std::string &text, size_t width, size_t head) {
  size_t keep = width - 3;
  return text.substr(0, head) + "..." + text.substr(text.size() - (keep - head));
}

/// Column `column` of `rows` cut to `width`, with no two different texts
/// cut alike: where the middle cut makes two names look the same
/// (/attn.q/MatMul and /attn.k/MatMul), the cut moves until they differ,
/// keeping as much of the end as it can.
std::vector<std::string> shortenColumn(const std::vector<std::vector<std::string>> &rows,
                                       size_t column, size_t width) {
  std::vector<std::string> cells(rows.size());
  std::map<std::string, std::set<std::string>> originalsOf;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (column >= rows[r].size())
      continue;
    cells[r] = shortenMiddle(rows[r][column], width);
    originalsOf[cells[r]].insert(rows[r][column]);
  }
  // The search is quadratic: a terminal table has tens of rows.
  if (width <= 4 || rows.size() > 2000)
    return cells;
  std::map<std::string, std::string> chosen; // original -> its distinct cut
  for (size_t r = 0; r < rows.size(); ++r) {
    if (column >= rows[r].size() || originalsOf[cells[r]].size() < 2)
      continue;
    const std::string &text = rows[r][column];
    if (auto found = chosen.find(text); found != chosen.end()) {
      cells[r] = found->second;
      continue;
    }
    // The longest tail whose cut no other text of the column shares.
    size_t keep = width - 3;
    for (size_t head = 1; head < keep; ++head) {
      std::string cut = shortenAt(text, width, head);
      bool shared = false;
      for (const auto &row : rows)
        if (column < row.size() && row[column] != text && row[column].size() > width &&
            shortenAt(row[column], width, head) == cut) {
          shared = true;
          break;
        }
      if (!shared) {
        cells[r] = cut;
        break;
      }
    }
    chosen[text] = cells[r];
  }
  return cells;
}

/// `rows` as aligned columns of `widths`, a cell too long cut in the middle
/// (shortenColumn).
std::string renderTable(const std::vector<std::vector<std::string>> &rows,
                        const std::vector<size_t> &widths) {
  const size_t gaps = 2 * (widths.size() - 1);
  std::vector<std::vector<std::string>> columns;
  for (size_t i = 0; i < widths.size(); ++i)
    columns.push_back(shortenColumn(rows, i, widths[i]));
  std::string out;
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (size_t i = 0; i < rows[r].size(); ++i) {
      const std::string &cell = columns[i][r];
      line += cell;
      if (i + 1 < rows[r].size())
        line += std::string(widths[i] - cell.size() + 2, ' ');
    }
    out += line + "\n";
    if (r == 0)
      out += std::string(std::accumulate(widths.begin(), widths.end(), gaps), '-') + "\n";
  }
  return out;
}

/// Columns that give way, in this order, when the terminal is narrow: the
/// source (a pass or file name, in full in report.txt), the names and the
/// op type, never below a readable minimum...
constexpr Shrinkable kShrinkable[] = {{"source", 14}, {"first node", 16}, {"node", 16},
                                      {"op type", 13}, {"inputs", 9}, {"outputs", 9}};
/// ...but the names are worth more than the dtype columns: those are left
/// out (report.txt has them) before a name is cut below 30 characters. In
/// this order: the dtypes of the inputs and outputs (the compute dtype
/// stays), the impl mode, the list.
constexpr Shrinkable kBeforeDropping[] = {{"source", 14}, {"first node", 30}, {"node", 30},
                                          {"op type", 13}, {"inputs", 9}, {"outputs", 9}};
constexpr llvm::StringRef kDroppable[] = {"inputs", "outputs", "impl mode", "list"};

/// `rows` rendered at most `width` wide: the shrinkable columns give way
/// (names down to 30), then droppable ones are left out (with a note saying
/// so), then the names give way further.
std::string fitTable(std::vector<std::vector<std::string>> rows, unsigned width) {
  std::vector<std::string> dropped = dropColumnsToFit(rows, width, kBeforeDropping, kDroppable);
  return renderTable(rows, fitWidths(rows, width, kShrinkable)) +
         droppedColumnsNote(dropped, width);
}

/// A node's decision as terminal cells: op type, engine, compute, inputs,
/// outputs, [impl mode,] list, rule, source.
std::vector<std::string> decisionCells(const ReportNode &node, bool implModes) {
  std::vector<std::string> cells = {
      node.opType + (node.generic ? " (generic)" : ""), shortEngine(node.engine),
      shortDType(node.computeDType), shortDTypes(node.inputDTypes),
      shortDTypes(node.outputDTypes), node.list, node.rule,
      node.insertedCast ? "inserted Cast" : shortSource(node.source)};
  if (implModes)
    cells.insert(cells.begin() + 5, node.implMode.empty() ? "-" : node.implMode);
  return cells;
}

} // namespace

std::string ascendprec::report::estimateCell(const ReportNode &node) {
  if (!node.estUs)
    return "-";
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g", *node.estUs);
  return text;
}

std::string ascendprec::report::errorCell(const std::optional<double> &error) {
  if (!error)
    return "-";
  if (*error == 0)
    return "0";
  if (std::isinf(*error))
    return "inf";
  if (std::isnan(*error))
    return "-"; // nothing finite to compare
  char text[32];
  std::snprintf(text, sizeof(text), "%.1e", *error);
  return text;
}

std::string ascendprec::report::reportTimeLine(const ReportData &report, size_t top) {
  if (!report.lowered || report.kernels.empty())
    return "";
  std::string line = "Device time (est.) " + formatUs(report.estDeviceUs());
  // The fixed launch costs are most of a small model's estimate: say so.
  if (double launches = report.estLaunchUs(); launches > 0) {
    size_t count = report.countedLaunches();
    line += " (" + formatUs(launches) + " of it the " + std::to_string(count) +
            (count == 1 ? " launch's" : " launches'") + " fixed cost)";
  }
  line += ":";
  bool first = true;
  for (const auto &[engine, us] : report.estUsByEngine()) {
    line += std::string(first ? " " : ", ") + engine + " " + formatUs(us);
    first = false;
  }
  if (report.estCastUs() > 0)
    line += "; inserted Casts " + formatUs(report.estCastUs());
  std::vector<const KernelEstimate *> sorted = report.longestKernels(top);
  line += ". Longest:";
  for (size_t i = 0; i < sorted.size(); ++i)
    line += std::string(i ? ", " : " ") + sorted[i]->node + " " + formatUs(sorted[i]->us);
  return line + "\n";
}

namespace {

/// Large models: one row per distinct decision, with its op count and first
/// node, most frequent first; every op stays in report.txt and report.html.
std::string groupedTable(const ReportData &report, unsigned width, bool implModes) {
  struct Group {
    size_t count = 0;
    std::string firstNode;
    size_t order; ///< first appearance, to break ties stably
  };
  std::map<std::vector<std::string>, Group> groups;
  // The cells come from a few of a node's fields: they are made once per
  // distinct combination of those fields, not once per node.
  llvm::StringMap<Group *> byFields;
  std::string fields;
  for (const ReportNode &node : report.nodes) {
    fields.clear();
    for (const std::string *field : {&node.opType, &node.engine, &node.computeDType,
                                     &node.implMode, &node.list, &node.rule, &node.source})
      (fields += *field) += '\0';
    for (const auto *dtypes : {&node.inputDTypes, &node.outputDTypes}) {
      for (const std::string &dtype : *dtypes)
        (fields += dtype) += '\1';
      fields += '\0';
    }
    fields += node.generic ? 'g' : '-';
    fields += node.insertedCast ? 'c' : '-';
    Group *&group = byFields[fields];
    if (!group) {
      auto [it, inserted] = groups.try_emplace(decisionCells(node, implModes));
      if (inserted) {
        it->second.firstNode = node.name;
        it->second.order = groups.size();
      }
      group = &it->second;
    }
    ++group->count;
  }
  std::vector<std::pair<const std::vector<std::string> *, const Group *>> sorted;
  for (const auto &[cells, group] : groups)
    sorted.push_back({&cells, &group});
  llvm::stable_sort(sorted, [](const auto &a, const auto &b) {
    return a.second->count != b.second->count ? a.second->count > b.second->count
                                              : a.second->order < b.second->order;
  });
  std::vector<std::vector<std::string>> rows = {
      {"ops", "op type", "engine", "compute", "inputs", "outputs", "list", "rule", "source",
       "first node"}};
  if (implModes)
    rows.front().insert(rows.front().begin() + 6, "impl mode");
  for (auto [cells, group] : sorted) {
    std::vector<std::string> row = {std::to_string(group->count)};
    row.insert(row.end(), cells->begin(), cells->end());
    row.push_back(group->firstNode);
    rows.push_back(std::move(row));
  }
  std::string out = "Ops grouped by decision (" + std::to_string(report.nodes.size()) +
                    " rows in " + std::to_string(groups.size()) + " groups):\n";
  return out + fitTable(std::move(rows), width);
}

} // namespace

std::string ascendprec::report::reportTerminalTable(const ReportData &report, unsigned width) {
  // The impl mode column only when some op has one.
  bool implModes = llvm::any_of(report.nodes, [](const ReportNode &n) {
    return !n.implMode.empty();
  });
  if (report.nodes.size() > kTerminalRowLimit)
    return groupedTable(report, width, implModes);
  std::vector<std::vector<std::string>> rows = {
      {"node", "op type", "engine", "compute", "inputs", "outputs", "list", "rule", "source"}};
  if (implModes)
    rows.front().insert(rows.front().begin() + 6, "impl mode");
  if (report.lowered)
    rows.front().push_back("est us");
  if (report.measured)
    rows.front().push_back("rel err");
  for (const ReportNode &node : report.nodes) {
    std::vector<std::string> row = {displayName(node)};
    std::vector<std::string> cells = decisionCells(node, implModes);
    row.insert(row.end(), cells.begin(), cells.end());
    if (report.lowered)
      row.push_back(estimateCell(node));
    if (report.measured)
      row.push_back(errorCell(node.relErr));
    rows.push_back(std::move(row));
  }
  std::vector<std::string> dropped = dropColumnsToFit(rows, width, kBeforeDropping, kDroppable);
  std::vector<size_t> widths = fitWidths(rows, width, kShrinkable);
  // A fused op names what it absorbed while that fits (and stays short);
  // else how many, in the longest form that fits, rather than a name cut
  // in the middle (report.txt and report.html list them all).
  size_t nameWidth = std::min(widths[0], kFusedNameLimit);
  for (size_t i = 0; i < report.nodes.size(); ++i) {
    const ReportNode &node = report.nodes[i];
    std::string &name = rows[i + 1][0];
    if (node.absorbed.empty() || name.size() <= nameWidth)
      continue;
    std::string count = std::to_string(node.absorbed.size());
    name = node.name + " (+" + count + " fused)";
    if (name.size() > widths[0])
      name = node.name + " (+" + count + ")";
  }
  return renderTable(rows, widths) + droppedColumnsNote(dropped, width);
}

/// "2 fused (ConvBatchnormFusionPass 1, MatMulBiasAddFusionPass 1), " and
/// "1 UB group (TbeCommonRules0FusionPass 1), ", each or both or "".
static std::string fusionsText(const ReportData &report) {
  auto describe = [](const std::map<std::string, int64_t> &byPass, const std::string &one,
                     const std::string &many) -> std::string {
    if (byPass.empty())
      return "";
    int64_t total = 0;
    std::string passes;
    for (const auto &entry : byPass) {
      total += entry.second;
      passes += (passes.empty() ? "" : ", ") + entry.first + " " + std::to_string(entry.second);
    }
    return std::to_string(total) + " " + (total == 1 ? one : many) + " (" + passes + "), ";
  };
  return describe(report.graphFusionsByPass(), "fused", "fused") +
         describe(report.bufferGroupsByPass(), "UB group", "UB groups");
}

/// " (5 inside UB groups)" or "".
static std::string castsInGroupsText(const ReportData &report) {
  int64_t inGroups = report.castsInBufferGroups();
  return inGroups ? " (" + std::to_string(inGroups) + " inside UB groups)" : "";
}

/// "; est. 38.6 us on the device in 19 kernels (12 distinct) (2 ops without
/// a kernel)"
static std::string estimateText(const ReportData &report) {
  if (!report.lowered)
    return "";
  if (report.kernels.empty())
    return "; no device-time estimate (" + std::to_string(report.unlowered.size()) +
           (report.unlowered.size() == 1 ? " op" : " ops") + " without a kernel)";
  size_t launches = report.kernels.size(), distinct = report.distinctKernels();
  std::string text = "; est. " + formatUs(report.estDeviceUs()) + " on the device in " +
                     std::to_string(launches) + (launches == 1 ? " kernel" : " kernels");
  if (distinct < launches)
    text += " (" + std::to_string(distinct) + " distinct)";
  if (size_t uncounted = report.uncountedLaunches())
    text += " (each If's longer branch counted; " + std::to_string(uncounted) +
            (uncounted == 1 ? " launch" : " launches") + " of shorter branches not)";
  if (!report.unlowered.empty())
    text += " (" + std::to_string(report.unlowered.size()) +
            (report.unlowered.size() == 1 ? " op" : " ops") + " without a kernel)";
  return text;
}

std::string ascendprec::report::reportSummaryLine(const ReportData &report) {
  return "SoC " + report.socVersion + ", precision mode " + report.precisionMode + ": " +
         std::to_string(report.plannedCount()) + " ops, " + fusionsText(report) +
         std::to_string(report.castsInserted) +
         (report.castsInserted == 1 ? " cast inserted" : " casts inserted") +
         castsInGroupsText(report) +
         ", " +
         std::to_string(report.castsRemoved) + " removed" + estimateText(report);
}
