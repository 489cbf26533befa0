//===- GraphOrder.h - ONNX graphs put in order as GE's parser does --------===//
//
// ONNX requires a graph's nodes in topological order, and onnx's checker
// refuses a file that is not. CANN's ONNX parser does not care: it links
// nodes by tensor name and sorts the graph itself (parser/onnx/
// onnx_parser.cc ModelParseToGraphImpl, then TopologicalSorting(),
// depth-first by default, in parser/common/parser_utils.cc); only a cycle
// fails. An exporter that appends a node at the end (a Cast of the input
// added after export) therefore converts with ATC, and must import here.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_TARGET_ONNX_GRAPHORDER_H
#define ASCENDPREC_LIB_TARGET_ONNX_GRAPHORDER_H

#include <onnx/onnx_pb.h>

#include <string>

namespace ascendprec::onnximport {

struct GraphOrderResult {
  /// The first place the file was out of order ("node 'a' reads 't' before
  /// node 'b' makes it"), empty when every graph was in order.
  std::string outOfOrder;
  /// Why the graph cannot be put in order (a cycle, a tensor nobody makes),
  /// naming the nodes; empty on success.
  std::string error;
};

/// Puts the nodes of `graph` and of its subgraphs in an order where each
/// comes after the nodes that make its inputs (the values a subgraph reads
/// from outside count as its node's inputs). A graph already in order keeps
/// its order; one that is not is sorted depth-first, the file's order
/// breaking ties, as GE's default sort does.
GraphOrderResult putInTopologicalOrder(onnx::GraphProto &graph);

} // namespace ascendprec::onnximport

#endif // ASCENDPREC_LIB_TARGET_ONNX_GRAPHORDER_H
