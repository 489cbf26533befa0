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

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <optional>
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

/// ONNX's checker: empty when the model is well formed, else why not.
std::string runChecker(const onnx::ModelProto &model) {
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception &e) {
    return std::string("malformed ONNX model: ") + e.what();
  }
  return {};
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

/// Forks a child that runs `work` (which fills the strings to send) and
/// exits; pid -1 when the platform refuses a pipe or a process. A child
/// with a `niceness` above 0 yields the CPU to the others.
template <typename Work>
Child spawn(Work work, int niceness = 0) {
  int fds[2];
  if (::pipe(fds) != 0)
    return {};
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
    std::vector<std::string> reply = work();
    bool sent = true;
    for (const std::string &part : reply)
      sent = sent && writeString(fds[1], part);
    ::_exit(sent ? 0 : 3);
  }
  ::close(fds[1]);
  return {pid, fds[0]};
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
  crash = WIFSIGNALED(status) ? std::string(::strsignal(WTERMSIG(status)))
                              : "exit status " + std::to_string(WEXITSTATUS(status));
  return std::nullopt;
}

void discard(Child child) {
  ::kill(child.pid, SIGKILL);
  ::close(child.fd);
  while (::waitpid(child.pid, nullptr, 0) < 0 && errno == EINTR) {
  }
}

std::string crashMessage(const std::string &how, const char *step) {
  return "libonnx crashed (" + how + ") while " + step +
         " this model: it is malformed in a way ONNX's checker does not catch; "
         "re-export it from its framework";
}
#endif

} // namespace

ValidationResult
ascendprec::onnximport::checkAndInferShapes(onnx::ModelProto &model, bool strict,
                                                  llvm::function_ref<void()> meanwhile) {
#ifdef ASCENDPREC_ONNX_ISOLATE
  // The checker and shape inference run at once, in two children: inference's
  // answer counts only once the checker has accepted the model. Inference
  // takes longest (1.3 s on a 200k-node model, the checker 0.5 s), so the
  // checker runs at a lower priority: on two cores it then shares one with
  // the importer's own preparations instead of slowing inference down.
  Child checker = spawn([&] { return std::vector<std::string>{runChecker(model)}; },
                        /*niceness=*/10);
  if (checker.pid < 0) {
    meanwhile();
    return checkAndInferInProcess(model, strict);
  }
  // What inference adds is the graphs' value_info and output types. Without
  // subgraphs, only those go back (the nodes and initializers, nearly all of
  // a model's bytes, are not copied through the pipe and parsed again);
  // with subgraphs, the model without its main graph's initializers.
  bool onlyTypes = !hasSubgraphs(model.graph());
  Child inference = spawn([&] {
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
  std::optional<std::vector<std::string>> inferred = collect(inference, 2, crash);
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
  meanwhile();
  return checkAndInferInProcess(model, strict);
#endif
}
