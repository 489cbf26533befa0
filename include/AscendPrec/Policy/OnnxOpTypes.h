//===- OnnxOpTypes.h - CANN's names for ONNX op types ---------------------===//
//
// ATC's ONNX parser gives ONNX nodes Ascend IR op types (Div -> RealDiv,
// MatMul -> BatchMatMulV2, ...). One table serves the importer (the op type
// of a node that stays generic) and config-file hints (a mixlist entry
// spelled with the ONNX name). Plain C++.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_ONNXOPTYPES_H
#define ASCENDPREC_POLICY_ONNXOPTYPES_H

#include <string>

namespace ascendprec::policy {

/// The Ascend IR op type for ONNX op type `onnxType`: its CANN name where
/// that differs, else `onnxType` itself.
std::string cannOpTypeForOnnx(const std::string &onnxType);

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_ONNXOPTYPES_H
