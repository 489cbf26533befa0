//===- ONNXValidation.cpp - ONNX checker and shape inference, isolated ----===//
//
// libonnx's checker and shape inference do not guard every field of a
// malformed model: fuzzing found models that pass the checker and then make
// shape inference read out of bounds (Gemm opset 6 with a rank-1 B). Both run
// in a child process, so that such a crash becomes an error about the model
// instead of taking the compiler (or the program embedding it) down.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporter.h"

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#define ASCENDPREC_ONNX_ISOLATE 1
#endif

using namespace ascendprec::onnximport;

namespace {

/// A Gemm in `graph` or its subgraphs whose A or B is declared (a graph
/// input's shape, an initializer's dims) with a rank other than 2: ONNX's
/// checker accepts it, and libonnx 1.12's shape inference then reads past
/// the end of its inputs' dimensions (found by fuzz-onnx-import), crashing
/// or not as memory happens to lie. Empty when there is none, else why.
std::string gemmRankError(const onnx::GraphProto &graph) {
  std::map<std::string, int> ranks;
  for (const onnx::ValueInfoProto &input : graph.input())
    if (input.type().has_tensor_type() && input.type().tensor_type().has_shape())
      ranks[input.name()] = input.type().tensor_type().shape().dim_size();
  for (const onnx::TensorProto &initializer : graph.initializer())
    ranks[initializer.name()] = initializer.dims_size();
  for (const onnx::NodeProto &node : graph.node()) {
    for (const onnx::AttributeProto &attribute : node.attribute()) {
      std::string inner = attribute.has_g() ? gemmRankError(attribute.g()) : std::string();
      for (const onnx::GraphProto &body : attribute.graphs())
        if (inner.empty())
          inner = gemmRankError(body);
      if (!inner.empty())
        return inner;
    }
    if (node.op_type() != "Gemm" || !node.domain().empty())
      continue;
    for (int i = 0; i < std::min(node.input_size(), 2); ++i) {
      auto found = ranks.find(node.input(i));
      if (found != ranks.end() && found->second != 2)
        return "node '" + node.name() + "' (Gemm): input " + (i == 0 ? "A" : "B") + " ('" +
               node.input(i) + "') has rank " + std::to_string(found->second) +
               "; Gemm multiplies 2-D A and B";
    }
  }
  return {};
}

/// ONNX's checker, and what it misses that crashes libonnx's own shape
/// inference: empty when the model is well formed, else why not.
std::string runChecker(const onnx::ModelProto &model) {
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception &e) {
    return std::string("malformed ONNX model: ") + e.what();
  }
  std::string gemm = gemmRankError(model.graph());
  return gemm.empty() ? gemm : "malformed ONNX model: " + gemm;
}

/// Set in the environment, makes the shape-inference child crash before it
/// starts (the tests' way to reach the report of a libonnx crash, which
/// no known model triggers reliably).
bool crashInferenceForTests() {
  const char *value = std::getenv("ASCENDPREC_TEST_ONNX_INFERENCE_CRASH");
  return value && std::string(value) == "1";
}

/// Whether ONNX's data propagation could learn anything about `graph`. It
/// starts only from Shape and Size nodes and from 0-/1-D int32/int64
/// constants (libonnx's DataPropagationContextImpl::getInputData); without
/// any, it only costs time (a fifth of inference on a 200k-node model).
/// Subgraphs, sparse initializers and Constant nodes count as possible
/// sources.
bool mayPropagateData(const onnx::GraphProto &graph) {
  for (const onnx::TensorProto &init : graph.initializer())
    if (init.data_type() == onnx::TensorProto_DataType_INT64 ||
        init.data_type() == onnx::TensorProto_DataType_INT32)
      return true;
  if (graph.sparse_initializer_size() > 0)
    return true;
  for (const onnx::NodeProto &node : graph.node()) {
    const std::string &type = node.op_type();
    if (type == "Shape" || type == "Size" || type == "Constant")
      return true;
    for (const onnx::AttributeProto &attribute : node.attribute())
      if (attribute.has_g() || attribute.graphs_size() > 0)
        return true;
  }
  return false;
}

/// Shape inference into `model`'s value_info: empty, or why it failed.
std::string runShapeInference(onnx::ModelProto &model, bool strict) {
  try {
    // Data propagation folds shape arithmetic (Shape -> Gather -> Concat ->
    // Reshape chains, as PyTorch and Paddle export them) into static shapes.
    onnx::ShapeInferenceOptions options(/*check_type_val=*/false,
                                        /*strict_mode_val=*/strict ? 1 : 0,
                                        /*data_prop_val=*/mayPropagateData(model.graph()));
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception &e) {
    return e.what();
  }
  return {};
}

ValidationResult checkAndInferInProcess(onnx::ModelProto &model, bool strict) {
  ValidationResult result;
  result.error = runChecker(model);
  if (!result.error.empty())
    return result;
  result.shapeInferenceError = runShapeInference(model, strict);
  result.ok = true;
  return result;
}

#ifdef ASCENDPREC_ONNX_ISOLATE
bool writeAll(int fd, const void *data, size_t size) {
  const char *bytes = static_cast<const char *>(data);
  while (size > 0) {
    ssize_t written = ::write(fd, bytes, size);
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0)
      return false;
    bytes += written;
    size -= static_cast<size_t>(written);
  }
  return true;
}

bool writeString(int fd, const std::string &text) {
  uint64_t size = text.size();
  return writeAll(fd, &size, sizeof(size)) && writeAll(fd, text.data(), text.size());
}

/// Reads one length-prefixed string from `data` at `offset`.
bool readString(const std::string &data, size_t &offset, std::string &text) {
  uint64_t size;
  if (data.size() - offset < sizeof(size))
    return false;
  std::memcpy(&size, data.data() + offset, sizeof(size));
  offset += sizeof(size);
  if (data.size() - offset < size)
    return false;
  text.assign(data, offset, size);
  offset += size;
  return true;
}

/// Whether a node of `graph` has a subgraph (If, Loop, Scan, ...).
bool hasSubgraphs(const onnx::GraphProto &graph) {
  for (const onnx::NodeProto &node : graph.node())
    for (const onnx::AttributeProto &attribute : node.attribute())
      if (attribute.has_g() || attribute.graphs_size() > 0)
        return true;
  return false;
}

/// A forked child that sends its answer as length-prefixed strings.
struct Child {
  pid_t pid = -1;
  int fd = -1;
};

/// Forks a child that runs `work(fd)`, which may write to the pipe `fd`
/// itself before the strings it returns are sent, and exits; pid -1 when the
/// platform refuses a pipe or a process. A child with a `niceness` above 0
/// yields the CPU to the others.
template <typename Work>
Child spawnWriting(Work work, int niceness = 0) {
  int fds[2];
  // Close-on-exec: a program embedding the importer may start others while
  // the stream's read end is open.
#ifdef __linux__
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return {};
#else
  if (::pipe(fds) != 0)
    return {};
#endif
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return {};
  }
  if (pid == 0) {
    ::close(fds[0]);
    // A program may block SIGINT/SIGTERM to handle them on a thread of its
    // own (prec-compile does); that thread is not copied by fork(), so the
    // child takes the default action and Ctrl-C stops it too.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    // A crash report from libonnx's internals would only confuse the user;
    // the parent reports the crash as an error about the model.
    int devNull = ::open("/dev/null", O_WRONLY);
    if (devNull >= 0)
      ::dup2(devNull, STDERR_FILENO);
    if (niceness > 0)
      ::setpriority(PRIO_PROCESS, 0, ::getpriority(PRIO_PROCESS, 0) + niceness);
    // Nothing may unwind out of the child into the parent's stack.
    std::vector<std::string> reply;
    try {
      reply = work(fds[1]);
    } catch (...) {
      ::_exit(4);
    }
    bool sent = true;
    for (const std::string &part : reply)
      sent = sent && writeString(fds[1], part);
    ::_exit(sent ? 0 : 3);
  }
  ::close(fds[1]);
  return {pid, fds[0]};
}

/// spawnWriting() for a child whose answer is the strings `work()` returns.
template <typename Work>
Child spawn(Work work, int niceness = 0) {
  return spawnWriting([&](int) { return work(); }, niceness);
}

/// How a child ended that did not send all it should: the signal that
/// killed it, or its exit status.
std::string howItEnded(int status) {
  return WIFSIGNALED(status) ? std::string(::strsignal(WTERMSIG(status)))
                             : "exit status " + std::to_string(WEXITSTATUS(status));
}

/// Reads everything `child` sends and reaps it. Returns the parts, or
/// nothing with `crash` saying how the child died.
std::optional<std::vector<std::string>> collect(Child child, size_t parts, std::string &crash) {
  std::string reply;
  char buffer[1 << 16];
  while (true) {
    ssize_t got = ::read(child.fd, buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    reply.append(buffer, static_cast<size_t>(got));
  }
  ::close(child.fd);
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::vector<std::string> result(parts);
  size_t offset = 0;
  bool complete = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  for (std::string &part : result)
    complete = complete && readString(reply, offset, part);
  if (complete)
    return result;
  // Killed by a signal, or (under a sanitizer) exited after reporting one.
  crash = howItEnded(status);
  return std::nullopt;
}

void discard(Child child) {
  ::kill(child.pid, SIGKILL);
  ::close(child.fd);
  while (::waitpid(child.pid, nullptr, 0) < 0 && errno == EINTR) {
  }
}

//===----------------------------------------------------------------------===//
// Streaming the main graph's types while inference runs
//===----------------------------------------------------------------------===//
//
// libonnx asks its schema registry for one schema per node of the main
// graph, in node order, just before inferring that node; every earlier node
// is done by then, and its output types are in the graph: in a value_info
// entry the model had (merged in place), or in a new one appended in node
// order. Wrapping the registry tells the child when to send them. Messages
// are length-prefixed strings whose first byte says what they are:
//   'S'  first: the types stream in chunks;
//   'W'  first: no streaming, the usual two-part answer follows;
//   'C'  a chunk: first node (u32), node count (u32), then for each output
//        of those nodes a length-prefixed serialized TypeProto (empty for
//        an output without a type);
//   'E'  the end: inference's error (length-prefixed), then a GraphProto
//        holding the graph's outputs with their inferred types.

constexpr char kStreamTag = 'S', kWholeTag = 'W', kChunkTag = 'C', kEndTag = 'E';
/// Nodes per chunk: a few tens of kilobytes of types.
constexpr int kStreamChunkNodes = 2048;

void appendU32(std::string &out, uint32_t value) {
  out.append(reinterpret_cast<const char *>(&value), sizeof(value));
}

bool readU32(const std::string &data, size_t &offset, uint32_t &value) {
  if (data.size() - offset < sizeof(value))
    return false;
  std::memcpy(&value, data.data() + offset, sizeof(value));
  offset += sizeof(value);
  return true;
}

/// Whether libonnx asks for exactly one schema per main-graph node: not
/// when an op is inferred through its function body (which asks for the
/// body's ops too), or when the model has functions of its own.
bool schemaCallsFollowNodes(const onnx::ModelProto &model) {
  if (model.functions_size() > 0)
    return false;
  std::unordered_map<std::string, int> opsets;
  for (const onnx::OperatorSetIdProto &import : model.opset_import())
    opsets[import.domain()] = static_cast<int>(import.version());
  for (const onnx::NodeProto &node : model.graph().node()) {
    auto it = opsets.find(node.domain());
    if (it == opsets.end() && node.domain().empty())
      it = opsets.find("ai.onnx");
    if (it == opsets.end())
      continue; // inference stops at this node, before asking
    const onnx::OpSchema *schema =
        onnx::OpSchemaRegistry::Schema(node.op_type(), it->second, node.domain());
    if (schema && !schema->has_type_and_shape_inference_function() && schema->HasFunction())
      return false;
  }
  return true;
}

/// In the inference child: sends the output types of the nodes inference
/// has finished since the last chunk.
class TypeSender {
public:
  TypeSender(int fd, onnx::GraphProto &graph) : fd(fd), graph(graph) {
    // What libonnx starts from: the typed entries, later lists winning.
    for (const auto *list : {&graph.value_info(), &graph.input(), &graph.output()})
      for (const onnx::ValueInfoProto &info : *list)
        if (info.has_type())
          known[info.name()] = &info.type();
    appended = graph.value_info_size();
  }

  /// Sends nodes [sent, `done`) once a chunk's worth has finished, or all
  /// of them when `force`. False once the parent has gone.
  bool sendUpTo(int done, bool force) {
    done = std::min(done, graph.node_size());
    if (!alive || done - sent < (force ? 1 : kStreamChunkNodes))
      return alive;
    std::string chunk(1, kChunkTag);
    appendU32(chunk, static_cast<uint32_t>(sent));
    appendU32(chunk, static_cast<uint32_t>(done - sent));
    std::string bytes;
    for (int n = sent; n < done; ++n)
      for (const std::string &output : graph.node(n).output()) {
        bytes.clear();
        if (const onnx::TypeProto *type = typeOf(output))
          type->SerializeToString(&bytes);
        appendU32(chunk, static_cast<uint32_t>(bytes.size()));
        chunk += bytes;
      }
    sent = done;
    alive = writeString(fd, chunk);
    return alive;
  }

private:
  /// A finished node output's type: its entry from the model, or the next
  /// appended one when that is its (libonnx appends in node order).
  const onnx::TypeProto *typeOf(const std::string &output) {
    if (output.empty())
      return nullptr;
    if (auto it = known.find(output); it != known.end())
      return it->second;
    if (appended < graph.value_info_size() && graph.value_info(appended).name() == output)
      return &graph.value_info(appended++).type();
    return nullptr;
  }

  int fd;
  onnx::GraphProto &graph;
  std::unordered_map<std::string, const onnx::TypeProto *> known;
  int appended; ///< next value_info entry libonnx appended, not yet sent
  int sent = 0;
  bool alive = true;
};

/// libonnx's registry, with a call back before each node is inferred.
class NodeProgressRegistry final : public onnx::ISchemaRegistry {
public:
  NodeProgressRegistry(std::function<void(int)> nodeStarts)
      : nodeStarts(std::move(nodeStarts)) {}
  const onnx::OpSchema *GetSchema(const std::string &key, const int maxInclusiveVersion,
                                  const std::string &domain) const override {
    nodeStarts(started++);
    return onnx::OpSchemaRegistry::Instance()->GetSchema(key, maxInclusiveVersion, domain);
  }

private:
  std::function<void(int)> nodeStarts;
  mutable int started = 0;
};

/// The inference child's work when the parent reads a stream: types in
/// chunks while inference runs, then the end message. False, after saying
/// so, when libonnx cannot stream this model: the caller sends the whole
/// answer instead.
bool inferAndStream(int fd, onnx::ModelProto &model, bool strict) {
  if (!schemaCallsFollowNodes(model)) {
    writeString(fd, std::string(1, kWholeTag));
    return false;
  }
  if (!writeString(fd, std::string(1, kStreamTag)))
    return true; // the parent has gone
  onnx::GraphProto &graph = *model.mutable_graph();
  TypeSender sender(fd, graph);
  // Once the parent has gone (even with SIGPIPE ignored), nobody wants the
  // rest of inference.
  NodeProgressRegistry registry([&](int node) {
    if (!sender.sendUpTo(node, /*force=*/false))
      ::_exit(0);
  });
  std::string error;
  try {
    onnx::ShapeInferenceOptions options(/*check_type_val=*/false,
                                        /*strict_mode_val=*/strict ? 1 : 0,
                                        /*data_prop_val=*/mayPropagateData(graph));
    onnx::shape_inference::InferShapes(model, &registry, options);
  } catch (const std::exception &e) {
    error = e.what();
  }
  // After an error, the nodes not reached have no new types.
  if (!sender.sendUpTo(graph.node_size(), /*force=*/true))
    return true;
  onnx::GraphProto outputs;
  outputs.mutable_output()->Swap(graph.mutable_output());
  std::string end(1, kEndTag);
  appendU32(end, static_cast<uint32_t>(error.size()));
  end += error;
  std::string serialized;
  outputs.SerializeToString(&serialized);
  writeString(fd, end + serialized);
  return true;
}

std::string crashMessage(const std::string &how, const char *step) {
  return "libonnx crashed (" + how + ") while " + step +
         " this model: it is malformed in a way ONNX's checker does not catch; "
         "re-export it from its framework";
}
#endif

} // namespace

ValidationResult::ValidationResult() = default;
ValidationResult::ValidationResult(ValidationResult &&) = default;
ValidationResult &ValidationResult::operator=(ValidationResult &&) = default;
ValidationResult::~ValidationResult() = default;

ValidationResult
ascendprec::onnximport::checkAndInferShapes(onnx::ModelProto &model, bool strict,
                                            llvm::function_ref<void()> meanwhile,
                                            bool allowStreaming) {
#ifdef ASCENDPREC_ONNX_ISOLATE
  // The checker and shape inference run at once, in two children: inference's
  // answer counts only once the checker has accepted the model. When the
  // importer waits for all of inference, inference is the long pole (1.3 s
  // on a 200k-node model, the checker 0.5 s): the checker then runs at a
  // lower priority, sharing a core with the importer's own preparations. A
  // stream's importer waits for the checker instead, before converting.
  // What inference adds is the graphs' value_info and output types. Without
  // subgraphs, only those go back (the nodes and initializers, nearly all of
  // a model's bytes, are not copied through the pipe and parsed again);
  // with subgraphs, the model without its main graph's initializers.
  bool onlyTypes = !hasSubgraphs(model.graph());
  bool streaming = allowStreaming && onlyTypes;
  Child checker = spawn([&] { return std::vector<std::string>{runChecker(model)}; },
                        /*niceness=*/streaming ? 0 : 10);
  if (checker.pid < 0) {
    meanwhile();
    return checkAndInferInProcess(model, strict);
  }
  Child inference = spawnWriting([&](int fd) {
    if (crashInferenceForTests())
      std::raise(SIGSEGV);
    if (streaming && inferAndStream(fd, model, strict))
      return std::vector<std::string>{}; // all sent
    std::string error = runShapeInference(model, strict);
    std::string serialized;
    if (onlyTypes) {
      onnx::GraphProto types;
      types.mutable_value_info()->Swap(model.mutable_graph()->mutable_value_info());
      types.mutable_output()->Swap(model.mutable_graph()->mutable_output());
      types.SerializeToString(&serialized);
    } else {
      model.mutable_graph()->clear_initializer();
      model.SerializeToString(&serialized);
    }
    // The child ends without freeing the model.
    return std::vector<std::string>{error, serialized};
  });
  // Room for the types of many chunks, so that inference rarely waits for
  // the importer to read (Linux; elsewhere the default pipe size).
#ifdef F_SETPIPE_SZ
  if (streaming && inference.pid >= 0)
    ::fcntl(inference.fd, F_SETPIPE_SZ, 1 << 20);
#endif

  meanwhile();
  ValidationResult result;
  std::string crash;
  std::optional<std::vector<std::string>> checked = collect(checker, 1, crash);
  if (!checked || !(*checked)[0].empty()) {
    if (inference.pid >= 0)
      discard(inference);
    result.error = checked ? (*checked)[0] : crashMessage(crash, "checking");
    return result;
  }
  if (inference.pid < 0) {
    result.shapeInferenceError = runShapeInference(model, strict);
    result.ok = true;
    return result;
  }
  std::optional<std::vector<std::string>> inferred;
  if (streaming) {
    auto stream = std::make_unique<InferenceStream>(inference.pid, inference.fd, model.graph());
    if (!stream->answersWhole()) {
      result.stream = std::move(stream);
      result.ok = true;
      return result;
    }
    inferred = stream->collectWhole(crash);
  } else {
    inferred = collect(inference, 2, crash);
  }
  if (!inferred) {
    result.error = crashMessage(crash, "inferring the shapes of");
    return result;
  }
  result.shapeInferenceError = (*inferred)[0];
  if (onlyTypes) {
    onnx::GraphProto types;
    if (!types.ParseFromString((*inferred)[1])) {
      result.error = "internal error: the ONNX validation process returned unreadable types";
      return result;
    }
    model.mutable_graph()->mutable_value_info()->Swap(types.mutable_value_info());
    model.mutable_graph()->mutable_output()->Swap(types.mutable_output());
    result.ok = true;
    return result;
  }
  onnx::ModelProto withShapes;
  if (!withShapes.ParseFromString((*inferred)[1])) {
    result.error = "internal error: the ONNX validation process returned an unreadable model";
    return result;
  }
  // The inferred model, with the initializers the child left out.
  withShapes.mutable_graph()->mutable_initializer()->Swap(
      model.mutable_graph()->mutable_initializer());
  model.Swap(&withShapes);
  result.ok = true;
  return result;
#else
  (void)allowStreaming;
  meanwhile();
  return checkAndInferInProcess(model, strict);
#endif
}

#ifdef ASCENDPREC_ONNX_ISOLATE
InferenceStream::InferenceStream(int pid, int fd, const onnx::GraphProto &graph)
    : pid(pid), fd(fd), graph(graph) {}

InferenceStream::~InferenceStream() {
  if (pid > 0)
    discard({pid, fd});
  else if (fd >= 0)
    ::close(fd);
}

bool InferenceStream::nextMessage(std::string &message) {
  while (true) {
    uint64_t size;
    size_t available = pending.size() - consumed;
    if (available >= sizeof(size)) {
      std::memcpy(&size, pending.data() + consumed, sizeof(size));
      if (available - sizeof(size) >= size)
        return readString(pending, consumed, message);
    }
    if (fd < 0)
      return false;
    // Drop what was consumed before reading more.
    pending.erase(0, consumed);
    consumed = 0;
    char buffer[1 << 16];
    ssize_t got = ::read(fd, buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0) {
      ::close(fd);
      fd = -1;
      continue; // what is buffered may still hold a whole message
    }
    pending.append(buffer, static_cast<size_t>(got));
  }
}

bool InferenceStream::answersWhole() {
  std::string first;
  if (!nextMessage(first)) {
    ended = true; // died before saying: finish() reports how
    return false;
  }
  if (first.size() == 1 && first[0] == kWholeTag)
    return true;
  if (first.size() != 1 || first[0] != kStreamTag)
    ended = malformed = true;
  return false;
}

int InferenceStream::reap() {
  if (fd >= 0) {
    ::close(fd);
    fd = -1;
  }
  int status = 0;
  if (pid > 0)
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  pid = -1;
  return status;
}

std::optional<std::vector<std::string>> InferenceStream::collectWhole(std::string &crash) {
  std::vector<std::string> parts(2);
  bool complete = nextMessage(parts[0]) && nextMessage(parts[1]);
  // Reading to the end first: the child exits once its pipe is drained.
  std::string rest;
  while (nextMessage(rest)) {
  }
  int status = reap();
  bool exited = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (complete && exited)
    return parts;
  crash = exited ? "it ended without its whole answer" : howItEnded(status);
  return std::nullopt;
}

void InferenceStream::deliverChunk(const std::string &message, TypeCallback onType) {
  size_t offset = 1;
  uint32_t first = 0, count = 0;
  if (!readU32(message, offset, first) || !readU32(message, offset, count) ||
      static_cast<int>(first) != typedNodes ||
      static_cast<int64_t>(first) + count > graph.node_size()) {
    ended = malformed = true; // not what this child sends: finish() reports it
    return;
  }
  for (uint32_t n = first; n < first + count; ++n)
    for (const std::string &output : graph.node(static_cast<int>(n)).output()) {
      uint32_t size = 0;
      if (!readU32(message, offset, size) || message.size() - offset < size) {
        ended = malformed = true;
        return;
      }
      if (size > 0 && !output.empty() &&
          scratch.ParseFromArray(message.data() + offset, static_cast<int>(size)))
        onType(output, scratch);
      offset += size;
    }
  typedNodes = static_cast<int>(first + count);
}

void InferenceStream::awaitNodes(int count, TypeCallback onType) {
  std::string message;
  while (typedNodes < count && !ended) {
    if (!nextMessage(message) || message.empty()) {
      ended = true;
      break;
    }
    if (message[0] == kChunkTag) {
      deliverChunk(message, onType);
    } else {
      ended = true;
      if (message[0] == kEndTag)
        endMessage = std::move(message);
      else
        malformed = true;
    }
  }
}

ValidationResult InferenceStream::finish(onnx::ModelProto &model) {
  // The chunks of nodes the importer did not need (it stopped early).
  awaitNodes(graph.node_size(), [](const std::string &, const onnx::TypeProto &) {});
  std::string message;
  if (endMessage.empty() && nextMessage(message) && !message.empty() && message[0] == kEndTag)
    endMessage = std::move(message);
  while (nextMessage(message)) {
  }
  int status = reap();
  ValidationResult result;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    result.error = crashMessage(howItEnded(status), "inferring the shapes of");
    return result;
  }
  size_t offset = 1;
  uint32_t errorSize = 0;
  onnx::GraphProto outputs;
  if (malformed || endMessage.empty() || !readU32(endMessage, offset, errorSize) ||
      endMessage.size() - offset < errorSize ||
      !outputs.ParseFromArray(endMessage.data() + offset + errorSize,
                              static_cast<int>(endMessage.size() - offset - errorSize))) {
    result.error = "internal error: the ONNX validation process returned unreadable types";
    return result;
  }
  result.shapeInferenceError = endMessage.substr(offset, errorSize);
  model.mutable_graph()->mutable_output()->Swap(outputs.mutable_output());
  result.ok = true;
  return result;
}
#else
// Without child processes, checkAndInferShapes never makes a stream.
InferenceStream::InferenceStream(int pid, int fd, const onnx::GraphProto &graph)
    : pid(pid), fd(fd), graph(graph) {}
InferenceStream::~InferenceStream() = default;
bool InferenceStream::answersWhole() { return true; }
std::optional<std::vector<std::string>> InferenceStream::collectWhole(std::string &crash) {
  crash = "no child process";
  return std::nullopt;
}
void InferenceStream::awaitNodes(int, TypeCallback) {}
ValidationResult InferenceStream::finish(onnx::ModelProto &) {
  ValidationResult result;
  result.error = "internal error: no shape inference is running";
  return result;
}
#endif
