//===- EinsumDecomposition.cpp - CANN's EinsumPass -------------------------===//
//
// CANN has no AI Core Einsum kernel: its graph fusion pass EinsumPass
// (ops/built-in/fusion_pass/graph_fusion/ai_core/einsum_fusion_pass.cc,
// SplitOpInFuzzScene for static shapes) rewrites an Einsum into ops that
// have one: each operand's labels found in it alone are summed away
// (ReduceSum), two operands are transposed to [batch, free, contracted] and
// [batch, contracted, free] and reshaped to three dimensions, one
// BatchMatMulV2 contracts them on the cube, and the result is reshaped and
// transposed to the equation's output (one operand: the sum, then the
// transpose). Equations this cannot express (three operands, `...`, a label
// repeated within an operand, batch dimensions that broadcast) stay Einsum,
// as in CANN, and run on the AI CPU; so does an fp64 or integer Einsum,
// which the AI Core does not compute (docs/decisions.md).
//
// The BatchMatMulV2 (one operand: the last op) keeps the Einsum's node name,
// so that keep_dtype and customize_dtypes entries for the Einsum pin it, and
// records EinsumPass in fused_by; the other ops are named after it.
//
//===----------------------------------------------------------------------===//

#include "FusionPatterns.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cctype>
#include <map>
#include <numeric>
#include <set>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

namespace {

/// An equation's operands and output as label strings ("bij", "bjk" ->
/// "bik"), or nothing when EinsumPass does not decompose it.
struct Equation {
  std::string a, b, out; ///< b is empty for a one-operand Einsum
  bool twoOperands = true;
};

std::optional<Equation> parseEquation(StringRef text) {
  std::string compact;
  for (char c : text)
    if (c != ' ')
      compact += c;
  if (StringRef(compact).contains("..."))
    return std::nullopt;
  auto [inputs, output] = StringRef(compact).split("->");
  bool explicitOutput = StringRef(compact).contains("->");
  SmallVector<StringRef> operands;
  inputs.split(operands, ',');
  if (operands.size() != 1 && operands.size() != 2)
    return std::nullopt;
  Equation equation{operands[0].str(), operands.size() == 2 ? operands[1].str() : "",
                    output.str(), operands.size() == 2};
  auto lettersOnce = [](StringRef labels) {
    std::set<char> seen;
    for (char c : labels)
      if (!std::isalpha(static_cast<unsigned char>(c)) || !seen.insert(c).second)
        return false;
    return true;
  };
  if (!explicitOutput) {
    // NumPy's implicit output: the labels that appear once, in order.
    std::map<char, int> count;
    for (char c : equation.a + equation.b)
      ++count[c];
    equation.out.clear();
    for (auto [label, n] : count)
      if (n == 1)
        equation.out += label;
  }
  if (!lettersOnce(equation.a) || !lettersOnce(equation.b) || !lettersOnce(equation.out))
    return std::nullopt;
  for (char c : equation.out)
    if (equation.a.find(c) == std::string::npos && equation.b.find(c) == std::string::npos)
      return std::nullopt;
  return equation;
}

bool has(const std::string &labels, char c) { return labels.find(c) != std::string::npos; }

/// Builds the ops of one decomposition, each named after the Einsum.
class DecompositionBuilder {
public:
  DecompositionBuilder(EinsumOp einsum, NodeNames &names)
      : einsum(einsum), names(names), builder(einsum), loc(einsum.getLoc()),
        element(cast<ShapedType>(einsum.getType()).getElementType()) {}

  Value reduceSum(Value x, ArrayRef<int64_t> axes, StringRef role) {
    SmallVector<int64_t> shape;
    for (auto [i, dim] : llvm::enumerate(cast<RankedTensorType>(x.getType()).getShape()))
      if (!llvm::is_contained(axes, static_cast<int64_t>(i)))
        shape.push_back(dim);
    return unary(ReduceSumOp::getOperationName(), x, shape, "axes", axes, role);
  }

  Value transpose(Value x, ArrayRef<int64_t> perm, StringRef role) {
    if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
      return x;
    SmallVector<int64_t> shape;
    for (int64_t p : perm)
      shape.push_back(cast<RankedTensorType>(x.getType()).getDimSize(p));
    return unary(TransposeOp::getOperationName(), x, shape, "perm", perm, role);
  }

  Value reshape(Value x, ArrayRef<int64_t> shape, StringRef role) {
    if (cast<RankedTensorType>(x.getType()).getShape() == shape)
      return x;
    return unary(ReshapeOp::getOperationName(), x, shape, "", {}, role);
  }

  /// The contraction, under the Einsum's own name.
  Value batchMatMul(Value a, Value b, ArrayRef<int64_t> shape) {
    OperationState state(loc, BatchMatMulV2Op::getOperationName());
    state.addOperands({a, b});
    state.addTypes(RankedTensorType::get(shape, element));
    copyCommon(state, einsum.getName().str());
    state.addAttribute("fused_by", builder.getStrArrayAttr({kEinsumPass}));
    return builder.create(state)->getResult(0);
  }

private:
  /// `opName` on `x` giving `shape`, with an optional array attribute.
  Value unary(StringRef opName, Value x, ArrayRef<int64_t> shape, StringRef attrName,
              ArrayRef<int64_t> attrValue, StringRef role) {
    OperationState state(loc, opName);
    state.addOperands(x);
    state.addTypes(RankedTensorType::get(shape, element));
    if (!attrName.empty())
      state.addAttribute(attrName, builder.getDenseI64ArrayAttr(attrValue));
    return create(state, role);
  }

  Value create(OperationState &state, StringRef role) {
    copyCommon(state, names.claim((einsum.getName() + "/" + role).str()));
    return builder.create(state)->getResult(0);
  }

  /// The node name, and an impl mode set on the Einsum.
  void copyCommon(OperationState &state, const std::string &name) {
    state.addAttribute("name", builder.getStringAttr(name));
    if (Attribute mode = einsum->getAttr("impl_mode"))
      state.addAttribute("impl_mode", mode);
  }

  EinsumOp einsum;
  NodeNames &names;
  OpBuilder builder;
  Location loc;
  Type element;
};

int64_t product(ArrayRef<int64_t> dims) {
  return std::accumulate(dims.begin(), dims.end(), int64_t{1}, std::multiplies<int64_t>());
}

} // namespace

bool ascendprec::ascend::decomposeEinsum(EinsumOp einsum, NodeNames &names) {
  std::optional<Equation> equation = parseEquation(einsum.getEquation());
  if (!equation || einsum.getX().size() != (equation->twoOperands ? 2u : 1u))
    return false;
  auto aType = dyn_cast<RankedTensorType>(einsum.getX()[0].getType());
  auto bType = equation->twoOperands
                   ? dyn_cast<RankedTensorType>(einsum.getX()[1].getType())
                   : RankedTensorType::get({}, aType ? aType.getElementType() : Type());
  auto outType = dyn_cast<RankedTensorType>(einsum.getType());
  // Floats the AI Core computes in (fp16, bf16, fp32). An fp64 or integer
  // Einsum stays whole on the AI CPU (docs/decisions.md).
  if (!aType || !bType || !outType || !aType.hasStaticShape() || !bType.hasStaticShape() ||
      !outType.hasStaticShape() ||
      !(outType.getElementType().isF16() || outType.getElementType().isBF16() ||
        outType.getElementType().isF32()) ||
      aType.getRank() != static_cast<int64_t>(equation->a.size()) ||
      bType.getRank() != static_cast<int64_t>(equation->b.size()))
    return false;
  const std::string &aLabels = equation->a, &bLabels = equation->b, &out = equation->out;
  std::map<char, int64_t> size;
  for (size_t i = 0; i < aLabels.size(); ++i)
    size[aLabels[i]] = aType.getDimSize(i);
  for (size_t i = 0; i < bLabels.size(); ++i) {
    auto [it, inserted] = size.try_emplace(bLabels[i], bType.getDimSize(i));
    if (!inserted && it->second != bType.getDimSize(i))
      return false; // broadcasting dimensions: not decomposed
  }

  // Each label's part: batch (both operands and the output), contracted
  // (both, not the output), free (one operand and the output), summed away
  // (one operand only).
  std::string batch, contracted, aFree, bFree, aSummed, bSummed;
  for (char c : aLabels) {
    if (has(bLabels, c))
      (has(out, c) ? batch : contracted) += c;
    else
      (has(out, c) ? aFree : aSummed) += c;
  }
  for (char c : bLabels)
    if (!has(aLabels, c))
      (has(out, c) ? bFree : bSummed) += c;

  auto dims = [&](const std::string &labels) {
    SmallVector<int64_t> result;
    for (char c : labels)
      result.push_back(size[c]);
    return result;
  };
  if (ArrayRef<int64_t>(dims(out)) != outType.getShape())
    return false; // not what the verifier accepts; left whole

  DecompositionBuilder ops(einsum, names);
  auto positions = [](const std::string &labels, const std::string &of) {
    SmallVector<int64_t> result;
    for (char c : of)
      result.push_back(static_cast<int64_t>(labels.find(c)));
    return result;
  };
  auto without = [](std::string labels, const std::string &removed) {
    llvm::erase_if(labels, [&](char c) { return has(removed, c); });
    return labels;
  };

  Value a = einsum.getX()[0];
  Value bValue = equation->twoOperands ? einsum.getX()[1] : Value();
  std::string aNow = aLabels, bNow = bLabels;
  if (!aSummed.empty()) {
    a = ops.reduceSum(a, positions(aNow, aSummed), "ReduceSumA");
    aNow = without(aNow, aSummed);
  }
  if (!bSummed.empty()) {
    bValue = ops.reduceSum(bValue, positions(bNow, bSummed), "ReduceSumB");
    bNow = without(bNow, bSummed);
  }
  if (!equation->twoOperands) {
    // A sum over some labels and a transpose (every remaining label is
    // free: it is in the output).
    a = ops.transpose(a, positions(aNow, out), "TransposeOut");
    if (Operation *last = a.getDefiningOp(); last && last != einsum.getX()[0].getDefiningOp()) {
      // The last op stands for the Einsum: its name, and the pass.
      last->setAttr("name", einsum.getNameAttr());
      last->setAttr("fused_by", OpBuilder(einsum).getStrArrayAttr({kEinsumPass}));
    }
    einsum.getResult().replaceAllUsesWith(a);
    einsum->erase();
    return true;
  }
  int64_t batchSize = product(dims(batch)), m = product(dims(aFree)),
          n = product(dims(bFree)), k = product(dims(contracted));
  a = ops.transpose(a, positions(aNow, batch + aFree + contracted), "TransposeA");
  a = ops.reshape(a, {batchSize, m, k}, "ReshapeA");
  bValue = ops.transpose(bValue, positions(bNow, batch + contracted + bFree), "TransposeB");
  bValue = ops.reshape(bValue, {batchSize, k, n}, "ReshapeB");
  Value product = ops.batchMatMul(a, bValue, {batchSize, m, n});
  std::string resultLabels = batch + aFree + bFree;
  product = ops.reshape(product, dims(resultLabels), "ReshapeOut");
  product = ops.transpose(product, positions(resultLabels, out), "TransposeOut");
  einsum.getResult().replaceAllUsesWith(product);
  einsum->erase();
  return true;
}
