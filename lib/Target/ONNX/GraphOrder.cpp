//===- GraphOrder.cpp - ONNX graphs put in order as GE's parser does ------===//

#include "GraphOrder.h"

#include "AscendPrec/Policy/Diagnostics.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <vector>

namespace ascendprec::onnximport {

namespace {

std::string nodeName(const onnx::NodeProto &node, int index) {
  std::string name = node.name().empty() ? "#" + std::to_string(index) : node.name();
  return "'" + policy::escapeForDisplay(name) + "' (" + node.op_type() + ")";
}

std::string quoted(const std::string &text) { return "'" + policy::escapeForDisplay(text) + "'"; }

/// The values `graph` (and its subgraphs) reads that it does not define:
/// what a node holding it as an attribute reads from outside.
void outerValuesRead(const onnx::GraphProto &graph, std::set<std::string> &read) {
  std::set<std::string> defined;
  for (const auto &input : graph.input())
    defined.insert(input.name());
  for (const auto &init : graph.initializer())
    defined.insert(init.name());
  for (const auto &node : graph.node())
    for (const std::string &output : node.output())
      defined.insert(output);
  auto note = [&](const std::string &name) {
    if (!name.empty() && !defined.count(name))
      read.insert(name);
  };
  for (const auto &node : graph.node()) {
    for (const std::string &input : node.input())
      note(input);
    for (const auto &attribute : node.attribute()) {
      std::set<std::string> inner;
      if (attribute.has_g())
        outerValuesRead(attribute.g(), inner);
      for (const auto &sub : attribute.graphs())
        outerValuesRead(sub, inner);
      for (const std::string &name : inner)
        note(name);
    }
  }
  for (const auto &output : graph.output())
    note(output.name());
}

/// Every value a node reads: its inputs and what its subgraphs read from
/// outside.
std::vector<std::string> valuesRead(const onnx::NodeProto &node) {
  std::vector<std::string> read(node.input().begin(), node.input().end());
  std::set<std::string> inner;
  for (const auto &attribute : node.attribute()) {
    if (attribute.has_g())
      outerValuesRead(attribute.g(), inner);
    for (const auto &sub : attribute.graphs())
      outerValuesRead(sub, inner);
  }
  read.insert(read.end(), inner.begin(), inner.end());
  return read;
}

void sortGraph(onnx::GraphProto &graph, const std::set<std::string> &outer,
               GraphOrderResult &result) {
  int count = graph.node_size();
  std::set<std::string> available = outer;
  for (const auto &input : graph.input())
    available.insert(input.name());
  for (const auto &init : graph.initializer())
    available.insert(init.name());
  std::unordered_map<std::string, int> producer;
  for (int i = 0; i < count; ++i)
    for (const std::string &output : graph.node(i).output())
      if (!output.empty())
        producer.emplace(output, i);

  // Each node's producers among this graph's nodes; a value nobody makes
  // is the error.
  std::vector<std::vector<int>> dependsOn(count);
  bool inOrder = true;
  for (int i = 0; i < count; ++i) {
    for (const std::string &name : valuesRead(graph.node(i))) {
      if (name.empty())
        continue;
      auto made = producer.find(name);
      if (made == producer.end()) {
        if (!available.count(name)) {
          result.error = "node " + nodeName(graph.node(i), i) + " reads " + quoted(name) +
                         ", which no node, graph input or initializer makes";
          return;
        }
        continue; // an input or initializer (a name both defines is the node's)
      }
      if (made->second == i)
        continue; // a node reading its own output is a cycle ONNX's checker names
      dependsOn[i].push_back(made->second);
      if (made->second > i && inOrder) {
        inOrder = false;
        if (result.outOfOrder.empty())
          result.outOfOrder = "node " + nodeName(graph.node(i), i) + " reads " + quoted(name) +
                              " before node " + nodeName(graph.node(made->second), made->second) +
                              " makes it";
      }
    }
    std::sort(dependsOn[i].begin(), dependsOn[i].end());
    dependsOn[i].erase(std::unique(dependsOn[i].begin(), dependsOn[i].end()), dependsOn[i].end());
  }

  if (!inOrder) {
    // Depth-first, as GE sorts: a node whose inputs are all made goes on a
    // stack; the node taken next is the last pushed, so a chain is followed
    // to its end before a sibling starts. Ties go to the file's order (the
    // earlier node is pushed last, taken first).
    std::vector<std::vector<int>> consumers(count);
    std::vector<int> waiting(count);
    for (int i = 0; i < count; ++i) {
      waiting[i] = static_cast<int>(dependsOn[i].size());
      for (int producerIndex : dependsOn[i])
        consumers[producerIndex].push_back(i);
    }
    std::vector<int> stack, order;
    for (int i = count - 1; i >= 0; --i)
      if (waiting[i] == 0)
        stack.push_back(i);
    while (!stack.empty()) {
      int node = stack.back();
      stack.pop_back();
      order.push_back(node);
      std::vector<int> ready;
      for (int consumer : consumers[node])
        if (--waiting[consumer] == 0)
          ready.push_back(consumer);
      std::sort(ready.rbegin(), ready.rend());
      stack.insert(stack.end(), ready.begin(), ready.end());
    }
    if (static_cast<int>(order.size()) != count) {
      // The nodes never taken: on a cycle, or after one.
      std::vector<int> stuck;
      for (int i = 0; i < count; ++i)
        if (waiting[i] > 0)
          stuck.push_back(i);
      std::string names;
      for (size_t k = 0; k < stuck.size() && k < 5; ++k)
        names += (k ? ", " : "") + nodeName(graph.node(stuck[k]), stuck[k]);
      if (stuck.size() > 5)
        names += " and " + std::to_string(stuck.size() - 5) + " more";
      result.error = "the graph has a cycle: " + names +
                     " wait, directly or not, for their own outputs (or come after such "
                     "nodes); GE's parser refuses it too";
      return;
    }
    google::protobuf::RepeatedPtrField<onnx::NodeProto> sorted;
    sorted.Reserve(count);
    for (int index : order)
      sorted.Add()->Swap(graph.mutable_node(index));
    graph.mutable_node()->Swap(&sorted);
  }

  // The subgraphs, with everything this graph defines visible to them.
  std::set<std::string> inner = available;
  for (const auto &[name, index] : producer)
    inner.insert(name);
  for (auto &node : *graph.mutable_node())
    for (auto &attribute : *node.mutable_attribute()) {
      if (attribute.has_g())
        sortGraph(*attribute.mutable_g(), inner, result);
      for (auto &sub : *attribute.mutable_graphs())
        sortGraph(sub, inner, result);
      if (!result.error.empty())
        return;
    }
}

} // namespace

GraphOrderResult putInTopologicalOrder(onnx::GraphProto &graph) {
  GraphOrderResult result;
  sortGraph(graph, {}, result);
  return result;
}

} // namespace ascendprec::onnximport
