//===- Einsum.cpp - ONNX Einsum equations on host tensors -----------------===//

#include "AscendPrec/Execution/Einsum.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cctype>

using namespace ascendprec;
using namespace ascendprec::exec;
using runtime::HostTensor;

namespace {

constexpr int kLetterLabels = 52; ///< a-z, then A-Z

int letterLabel(char c) {
  if (c >= 'a' && c <= 'z')
    return c - 'a';
  return 26 + (c - 'A');
}

/// One side of the equation's term: its letters and where "..." stands.
struct Term {
  std::vector<int> letters;
  int ellipsisAt = -1; ///< index into letters before which "..." stands
};

std::optional<Term> parseTerm(llvm::StringRef text, std::string &why) {
  Term term;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i).starts_with("...")) {
      if (term.ellipsisAt >= 0) {
        why = "the term '" + text.str() + "' has two ellipses";
        return std::nullopt;
      }
      term.ellipsisAt = static_cast<int>(term.letters.size());
      i += 2;
      continue;
    }
    if (!std::isalpha(static_cast<unsigned char>(text[i]))) {
      why = std::string("'") + text[i] + "' in the term '" + text.str() +
            "' is not a letter or '...'";
      return std::nullopt;
    }
    term.letters.push_back(letterLabel(text[i]));
  }
  return term;
}

/// The labels of a term's dimensions, the ellipsis expanded to `ellipsis`
/// dimensions (labels kLetterLabels + k for the k-th from the right).
std::vector<int> expand(const Term &term, int64_t ellipsis) {
  std::vector<int> labels;
  for (size_t i = 0; i <= term.letters.size(); ++i) {
    if (static_cast<int>(i) == term.ellipsisAt)
      for (int64_t k = ellipsis - 1; k >= 0; --k)
        labels.push_back(kLetterLabels + static_cast<int>(k));
    if (i < term.letters.size())
      labels.push_back(term.letters[i]);
  }
  return labels;
}

/// Sets the indices of `labels` from `linear`, a row-major position in the
/// space they span (the last label varies fastest).
void setLabelIndices(const std::vector<int> &labels, int64_t linear,
                     const std::vector<int64_t> &labelSize, std::vector<int64_t> &index) {
  for (auto it = labels.rbegin(); it != labels.rend(); ++it) {
    index[*it] = linear % labelSize[*it];
    linear /= labelSize[*it];
  }
}

} // namespace

std::optional<EinsumPlan> exec::planEinsum(llvm::StringRef equation,
                                           llvm::ArrayRef<std::vector<int64_t>> shapes,
                                           std::string &why) {
  std::string compact;
  for (char c : equation)
    if (!std::isspace(static_cast<unsigned char>(c)))
      compact += c;
  llvm::StringRef text(compact);
  auto [inputsText, outputText] = text.split("->");
  bool explicitOutput = text.contains("->");
  llvm::SmallVector<llvm::StringRef> termTexts;
  inputsText.split(termTexts, ',');
  if (termTexts.size() != shapes.size()) {
    why = "the equation names " + std::to_string(termTexts.size()) + " operands, the op has " +
          std::to_string(shapes.size());
    return std::nullopt;
  }
  EinsumPlan plan;
  plan.labelSize.assign(kLetterLabels, 0);
  int64_t ellipsisRank = 0;
  std::vector<Term> terms;
  for (auto [termText, shape] : llvm::zip_equal(termTexts, shapes)) {
    std::optional<Term> term = parseTerm(termText, why);
    if (!term)
      return std::nullopt;
    int64_t explicitDims = static_cast<int64_t>(term->letters.size());
    int64_t rank = static_cast<int64_t>(shape.size());
    if (rank < explicitDims || (term->ellipsisAt < 0 && rank != explicitDims)) {
      why = "the term '" + termText.str() + "' does not fit an operand of rank " +
            std::to_string(rank);
      return std::nullopt;
    }
    if (term->ellipsisAt >= 0)
      ellipsisRank = std::max(ellipsisRank, rank - explicitDims);
    terms.push_back(*term);
  }
  plan.labelSize.resize(kLetterLabels + ellipsisRank, 1);
  std::vector<int> occurrences(plan.labelSize.size(), 0);
  std::vector<bool> sized(plan.labelSize.size(), false);
  for (auto [term, shape] : llvm::zip_equal(terms, shapes)) {
    int64_t ellipsis = static_cast<int64_t>(shape.size() - term.letters.size());
    std::vector<int> labels = expand(term, ellipsis);
    for (auto [label, size] : llvm::zip_equal(labels, shape)) {
      ++occurrences[label];
      bool ellipsisDim = label >= kLetterLabels;
      if (!sized[label] || (ellipsisDim && plan.labelSize[label] == 1)) {
        plan.labelSize[label] = size;
        sized[label] = true;
      } else if (plan.labelSize[label] != size && !(ellipsisDim && size == 1)) {
        why = "a label spans dimensions of sizes " + std::to_string(plan.labelSize[label]) +
              " and " + std::to_string(size);
        return std::nullopt;
      }
    }
    plan.operandLabels.push_back(std::move(labels));
  }
  if (explicitOutput) {
    std::optional<Term> output = parseTerm(outputText, why);
    if (!output)
      return std::nullopt;
    plan.outputLabels = expand(*output, output->ellipsisAt >= 0 ? ellipsisRank : 0);
    if (output->ellipsisAt < 0 && ellipsisRank > 0) {
      why = "the output drops the ellipsis dimensions (write '...' in it)";
      return std::nullopt;
    }
  } else {
    // The implicit form: the ellipsis dimensions, then the letters used
    // once, in alphabetical order.
    for (int64_t k = ellipsisRank - 1; k >= 0; --k)
      plan.outputLabels.push_back(kLetterLabels + static_cast<int>(k));
    std::vector<char> once;
    for (int label = 0; label < kLetterLabels; ++label)
      if (occurrences[label] == 1)
        once.push_back(label < 26 ? static_cast<char>('a' + label)
                                  : static_cast<char>('A' + label - 26));
    llvm::sort(once);
    for (char c : once)
      plan.outputLabels.push_back(letterLabel(c));
  }
  std::vector<bool> kept(plan.labelSize.size(), false);
  for (int label : plan.outputLabels) {
    if (occurrences[label] == 0) {
      why = "an output label is in no operand";
      return std::nullopt;
    }
    if (kept[label]) {
      why = "an output label is repeated";
      return std::nullopt;
    }
    kept[label] = true;
    plan.outputShape.push_back(plan.labelSize[label]);
  }
  for (int label = 0; label < static_cast<int>(plan.labelSize.size()); ++label)
    if (occurrences[label] > 0 && !kept[label])
      plan.summedLabels.push_back(label);
  return plan;
}

void exec::runEinsum(const EinsumPlan &plan, llvm::ArrayRef<const HostTensor *> operands,
                     HostTensor &output) {
  // Per operand, per label: the element stride it moves by (0 where the
  // operand broadcasts it); a repeated label adds its dimensions' strides.
  std::vector<std::vector<int64_t>> strideOf(operands.size(),
                                             std::vector<int64_t>(plan.labelSize.size(), 0));
  for (size_t i = 0; i < operands.size(); ++i) {
    const std::vector<int64_t> &shape = operands[i]->shape();
    int64_t stride = 1;
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (shape[d] != 1)
        strideOf[i][plan.operandLabels[i][d]] += stride;
      stride *= shape[d];
    }
  }
  std::vector<int> used = plan.outputLabels;
  llvm::append_range(used, plan.summedLabels);
  bool integers = !runtime::isFloat(output.type());
  int64_t summedCount = 1;
  for (int label : plan.summedLabels)
    summedCount *= plan.labelSize[label];
  std::vector<int64_t> index(plan.labelSize.size(), 0);
  for (int64_t out = 0; out < output.numElements(); ++out) {
    setLabelIndices(plan.outputLabels, out, plan.labelSize, index);
    double sum = 0;
    int64_t integerSum = 0;
    for (int64_t s = 0; s < summedCount; ++s) {
      setLabelIndices(plan.summedLabels, s, plan.labelSize, index);
      double product = 1;
      int64_t integerProduct = 1;
      for (size_t i = 0; i < operands.size(); ++i) {
        int64_t at = 0;
        for (int label : used)
          at += index[label] * strideOf[i][label];
        if (integers)
          integerProduct *= operands[i]->getInt(at);
        else
          product *= operands[i]->get(at);
      }
      sum += product;
      integerSum += integerProduct;
    }
    if (integers)
      output.setInt(out, integerSum);
    else
      output.set(out, sum);
  }
}
