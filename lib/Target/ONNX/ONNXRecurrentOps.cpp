//===- ONNXRecurrentOps.cpp - LSTM, GRU and RNN ----------------------------===//
//
// ONNX's recurrent layers become ascend.DynamicRNN (LSTM), DynamicGRUV2
// (GRU) and RNN with ONNX's operands. What those ops do not express stays
// ascend.generic with the reason: LSTM peepholes, non-default activations,
// clip. sequence_lens (a padded batch) becomes CANN's int32 seq_length.
// The batch-first layout gets Transposes around the op.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporter.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::onnximport;

namespace {

/// The activations each layer computes without an `activations` attribute.
const std::vector<std::string> &defaultActivations(const std::string &type) {
  static const std::vector<std::string> lstm = {"Sigmoid", "Tanh", "Tanh"};
  static const std::vector<std::string> gru = {"Sigmoid", "Tanh"};
  static const std::vector<std::string> rnn = {"Tanh"};
  return type == "LSTM" ? lstm : type == "GRU" ? gru : rnn;
}

/// Why the node does not fit the dedicated op, or empty.
std::string unsupportedFeature(NodeConverter &n, int64_t directions) {
  const std::string &type = n.node.op_type();
  if (type == "LSTM" && n.hasInput(7))
    return "peephole weights (P) are not expressed by ascend.DynamicRNN";
  if (n.attr("clip"))
    return "clip is not expressed by the ascend op";
  if (type == "LSTM" && n.intAttr("input_forget", 0) != 0)
    return "input_forget=1 is not expressed by ascend.DynamicRNN";
  if (const onnx::AttributeProto *activations = n.attr("activations")) {
    const std::vector<std::string> &defaults = defaultActivations(type);
    for (int i = 0; i < activations->strings_size(); ++i)
      if (activations->strings(i) != defaults[i % defaults.size()])
        return "activation " + activations->strings(i) + " is not the default";
    if (activations->strings_size() != static_cast<int>(defaults.size() * directions))
      return "the activations list does not fit the direction";
  }
  return {};
}

/// The type of output `i` in the sequence-first form: from x's sequence and
/// batch, refining what ONNX inferred.
RankedTensorType outputType(NodeConverter &n, unsigned i, RankedTensorType x,
                            int64_t directions, int64_t hidden, bool batchFirst) {
  SmallVector<int64_t> shape;
  if (i == 0)
    shape = {x.getDimSize(0), directions, x.getDimSize(1), hidden};
  else
    shape = {directions, x.getDimSize(1), hidden};
  auto computed = RankedTensorType::get(shape, x.getElementType());
  return batchFirst ? computed : refineType(n.outputType(i), computed);
}

/// `value` transposed by `perm`, named "<node><suffix>".
Value transposed(NodeConverter &n, Value value, ArrayRef<int64_t> perm, StringRef suffix) {
  auto type = dyn_cast_or_null<RankedTensorType>(value ? value.getType() : Type());
  if (!type || type.getRank() != static_cast<int64_t>(perm.size()))
    return Value();
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  return buildValue(n, "ascend.Transpose", {value}, type.clone(shape),
                    {n.builder.getNamedAttr("perm", n.builder.getDenseI64ArrayAttr(perm))}, suffix);
}

} // namespace

LogicalResult ascendprec::onnximport::convertRecurrentOp(NodeConverter &n) {
  const std::string &type = n.node.op_type();
  if (type != "LSTM" && type != "GRU" && type != "RNN")
    return failure();
  RankedTensorType x = n.inputType(0);
  std::string directionName = n.stringAttr("direction", "forward");
  std::optional<ascend::RnnDirection> direction = ascend::symbolizeRnnDirection(directionName);
  if (!direction) {
    n.rejection = "direction '" + directionName + "'";
    return failure();
  }
  int64_t directions = *direction == ascend::RnnDirection::Bidirectional ? 2 : 1;
  int64_t hidden = n.intAttr("hidden_size", 0);
  if (!x || x.getRank() != 3) {
    n.rejection = "x is not a rank-3 tensor of known rank";
    return failure();
  }
  if (std::string why = unsupportedFeature(n, directions); !why.empty()) {
    n.rejection = why;
    return failure();
  }
  // layout = 1 (batch first): x is [batch, seq, input] and the states
  // [batch, directions, hidden]; Transposes to and from the sequence-first
  // form the ascend op computes in.
  bool batchFirst = n.intAttr("layout", 0) != 0;
  static constexpr int64_t kSwapFirstTwo[] = {1, 0, 2};
  Value input = batchFirst ? transposed(n, n.input(0), kSwapFirstTwo, "/seq_first") : n.input(0);
  if (!input)
    return failure();
  x = cast<RankedTensorType>(input.getType());
  // ONNX order: x, w, r, [b], [sequence_lens], [initial_h], [initial_c], [p];
  // the ascend op's: x, w, r, [b], [init_h], [init_c], [seq_length]. With
  // sequence_lens, absent biases and initial states become zeros (what
  // ONNX means by their absence), so that seq_length is the last operand
  // at the position the kernel rows give it.
  bool padded = n.hasInput(4);
  int64_t batch = x.getDimSize(1);
  auto zeros = [&](ArrayRef<int64_t> shape, const std::string &suffix) -> Value {
    if (ShapedType::isDynamicShape(shape))
      return Value();
    auto type = RankedTensorType::get(shape, x.getElementType());
    return n.makeConst(DenseElementsAttr::get(type, n.builder.getZeroAttr(x.getElementType())),
                       suffix);
  };
  SmallVector<Value> operands = {input, n.input(1), n.input(2)};
  SmallVector<int32_t> segments = {1, 1, 1};
  SmallVector<unsigned> optional = {3, 5};
  if (type == "LSTM")
    optional.push_back(6);
  for (unsigned index : optional) {
    Value value = n.input(index);
    if (value && batchFirst && index != 3)
      value = transposed(n, value, kSwapFirstTwo, index == 5 ? "/initial_h" : "/initial_c");
    if (n.hasInput(index) && !value)
      return failure();
    if (!value && padded) {
      int64_t gates = type == "LSTM" ? 4 : type == "GRU" ? 3 : 1;
      value = index == 3 ? zeros({directions, 2 * gates * hidden}, "zero_bias")
                         : zeros({directions, batch, hidden},
                                 index == 5 ? "zero_initial_h" : "zero_initial_c");
      if (!value) {
        n.rejection = "sequence_lens with a batch known only at run time";
        return failure();
      }
    }
    if (value)
      operands.push_back(value);
    segments.push_back(value ? 1 : 0);
  }
  if (padded)
    operands.push_back(n.input(4));
  segments.push_back(padded ? 1 : 0);
  unsigned numResults = type == "LSTM" ? 3 : 2;
  SmallVector<Type> results;
  for (unsigned i = 0; i < numResults; ++i)
    results.push_back(outputType(n, i, x, directions, hidden, batchFirst));
  Builder &b = n.builder;
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr("hidden_size", b.getI64IntegerAttr(hidden)),
      b.getNamedAttr("direction", ascend::RnnDirectionAttr::get(b.getContext(), *direction)),
      b.getNamedAttr("operandSegmentSizes", b.getDenseI32ArrayAttr(segments))};
  if (type == "GRU")
    attrs.push_back(b.getNamedAttr("linear_before_reset",
                                   b.getI64IntegerAttr(n.intAttr("linear_before_reset", 0))));
  StringRef opName = type == "LSTM"  ? "ascend.DynamicRNN"
                     : type == "GRU" ? "ascend.DynamicGRUV2"
                                     : "ascend.RNN";
  Operation *op = buildOp(n, opName, operands, results, attrs);
  if (!op)
    return failure();
  n.results.assign(op->result_begin(), op->result_end());
  if (batchFirst) {
    // Y: [seq, directions, batch, hidden] -> [batch, seq, directions, hidden].
    static constexpr int64_t kYBatchFirst[] = {2, 0, 1, 3};
    static constexpr const char *kNames[] = {"/y_batch_first", "/y_h_batch_first",
                                             "/y_c_batch_first"};
    for (unsigned i = 0; i < n.results.size(); ++i) {
      if (static_cast<int>(i) >= n.node.output_size() || n.node.output(i).empty())
        continue;
      n.results[i] = transposed(n, n.results[i],
                                i == 0 ? ArrayRef<int64_t>(kYBatchFirst) : kSwapFirstTwo,
                                kNames[i]);
      if (!n.results[i])
        return failure();
    }
  }
  return success();
}
