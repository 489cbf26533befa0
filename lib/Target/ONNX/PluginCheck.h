//===- PluginCheck.h - the nodes ATC's ONNX parser has no plugin for ------===//
//
// Before it parses a model, ATC's ONNX parser checks every node: it builds
// the node's key "<domain>::<model's opset_import for the domain>::<type>"
// (parser/parser/onnx/onnx_parser.cc ConstructOriType) and looks it up in
// the registered operator plugins; a key with none is E13010
// (parser/parser/common/pre_checker.cc CheckTypeSupported), which stops the
// conversion. Constant and FileConstant nodes need no plugin (kOnnxOpMap in
// onnx_parser.cc). The table of plugins is data/onnx/parser-plugins.tsv
// (policy::OnnxParserPlugins).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_TARGET_ONNX_PLUGINCHECK_H
#define ASCENDPREC_LIB_TARGET_ONNX_PLUGINCHECK_H

#include "AscendPrec/Policy/AtcRefusals.h"
#include "AscendPrec/Policy/OnnxParserPlugins.h"

#include <onnx/onnx_pb.h>

#include <vector>

namespace ascendprec::onnximport {

/// Every node of `model`, those of its If/Loop/Scan subgraphs included,
/// whose parser key no plugin of `plugins` registers, grouped by key in the
/// order the keys' first nodes come (a node's subgraphs right after it).
/// Nodes are named as the import names them (importedNodeName). AMCT's
/// AscendQuant, AscendDequant and AscendAntiQuant are looked up in the
/// default domain whatever their own: ATC reads AMCT's deploy model with
/// them there, and the import takes them in a domain of their own only
/// because ONNX's checker refuses unknown ops in the default domain
/// (docs/quantization.md).
std::vector<policy::AtcRefusal> findAtcRefusals(const onnx::ModelProto &model,
                                                const policy::OnnxParserPlugins &plugins);

} // namespace ascendprec::onnximport

#endif // ASCENDPREC_LIB_TARGET_ONNX_PLUGINCHECK_H
