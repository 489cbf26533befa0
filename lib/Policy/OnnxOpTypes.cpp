//===- OnnxOpTypes.cpp - CANN's names for ONNX op types -------------------===//

#include "AscendPrec/Policy/OnnxOpTypes.h"

#include <map>

namespace ascendprec::policy {

std::string cannOpTypeForOnnx(const std::string &onnxType) {
  static const std::map<std::string, std::string> cannNames = {
      {"Div", "RealDiv"}, {"Max", "Maximum"}, {"Min", "Minimum"},
      {"MatMul", "BatchMatMulV2"}, {"Gemm", "MatMulV2"}, {"Conv", "Conv2D"},
      {"ConvTranspose", "Conv2DBackpropInput"}, {"Softmax", "SoftmaxV2"},
      {"LogSoftmax", "LogSoftmaxV2"}, {"Concat", "ConcatV2"}, {"Gather", "GatherV2"},
      {"Slice", "StridedSlice"}, {"Clip", "ClipByValue"}, {"Where", "Select"},
      {"BatchNormalization", "BatchNorm"}, {"LayerNormalization", "LayerNorm"},
      {"InstanceNormalization", "InstanceNorm"}, {"AveragePool", "AvgPool"},
      {"LessOrEqual", "LessEqual"}, {"GreaterOrEqual", "GreaterEqual"},
      {"And", "LogicalAnd"}, {"Or", "LogicalOr"}, {"Not", "LogicalNot"},
      {"Gelu", "GeluV2"}, {"Pad", "PadV3"}, {"Split", "SplitV"},
      {"MaxPool", "MaxPoolV3"}, {"LSTM", "DynamicRNN"}, {"GRU", "DynamicGRUV2"},
      {"ArgMax", "ArgMaxV2"}, {"Sum", "AddN"}, {"IsNaN", "IsNan"},
      {"GatherND", "GatherNd"}, {"ScatterND", "TensorScatterUpdate"}, {"CumSum", "Cumsum"},
      {"Scatter", "ScatterElements"}, {"Trilu", "Triu"},
      {"NonMaxSuppression", "NonMaxSuppressionV6"}, {"QuantizeLinear", "AscendQuant"},
      {"DequantizeLinear", "AscendAntiQuant"}, {"Det", "MatrixDeterminant"},
      {"RoiAlign", "ROIAlign"}, {"NegativeLogLikelihoodLoss", "NLLLoss"}};
  auto it = cannNames.find(onnxType);
  return it == cannNames.end() ? onnxType : it->second;
}

} // namespace ascendprec::policy
