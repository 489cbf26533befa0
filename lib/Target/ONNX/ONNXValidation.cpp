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

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#define ASCENDPREC_ONNX_ISOLATE 1
#endif

using namespace mlir::ascendprec::onnximport;

namespace {

ValidationResult checkAndInferInProcess(onnx::ModelProto &model, bool strict) {
  ValidationResult result;
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception &e) {
    result.error = std::string("malformed ONNX model: ") + e.what();
    return result;
  }
  try {
    // Data propagation folds shape arithmetic (Shape -> Gather -> Concat ->
    // Reshape chains, as PyTorch and Paddle export them) into static shapes.
    onnx::ShapeInferenceOptions options(/*check_type_val=*/false,
                                        /*strict_mode_val=*/strict ? 1 : 0,
                                        /*data_prop_val=*/true);
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception &e) {
    result.shapeInferenceError = e.what();
  }
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

/// The child: validate, then send [ok byte][error][shape error][model].
[[noreturn]] void runChild(onnx::ModelProto &model, bool strict, int fd) {
  // A program may block SIGINT/SIGTERM to handle them on a thread of its own
  // (prec-compile does); that thread is not copied by fork(), so the child
  // takes the default action and Ctrl-C stops it too.
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  // A crash report from libonnx's internals would only confuse the user;
  // the parent reports the crash as an error about the model.
  int devNull = ::open("/dev/null", O_WRONLY);
  if (devNull >= 0)
    ::dup2(devNull, STDERR_FILENO);
  ValidationResult result = checkAndInferInProcess(model, strict);
  // Initializers are unchanged by either step and usually hold nearly all of
  // the model's bytes: send the model back without them (the parent keeps
  // its own), so a large model is not copied through the pipe and parsed again.
  std::string serialized;
  if (result.ok) {
    model.mutable_graph()->clear_initializer();
    model.SerializeToString(&serialized);
  }
  char ok = result.ok ? 1 : 0;
  bool sent = writeAll(fd, &ok, 1) && writeString(fd, result.error) &&
              writeString(fd, result.shapeInferenceError) && writeString(fd, serialized);
  ::_exit(sent ? 0 : 3);
}
#endif

} // namespace

ValidationResult mlir::ascendprec::onnximport::checkAndInferShapes(onnx::ModelProto &model,
                                                                     bool strict) {
#ifdef ASCENDPREC_ONNX_ISOLATE
  int fds[2];
  if (::pipe(fds) != 0)
    return checkAndInferInProcess(model, strict);
  pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return checkAndInferInProcess(model, strict);
  }
  if (child == 0) {
    ::close(fds[0]);
    runChild(model, strict, fds[1]);
  }
  ::close(fds[1]);
  std::string reply;
  char buffer[1 << 16];
  while (true) {
    ssize_t got = ::read(fds[0], buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    reply.append(buffer, static_cast<size_t>(got));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }

  ValidationResult result;
  size_t offset = 1;
  std::string serialized;
  bool complete = WIFEXITED(status) && WEXITSTATUS(status) == 0 && !reply.empty() &&
                  readString(reply, offset, result.error) &&
                  readString(reply, offset, result.shapeInferenceError) &&
                  readString(reply, offset, serialized);
  if (!complete) {
    // Killed by a signal, or (under a sanitizer) exited after reporting one.
    std::string how = WIFSIGNALED(status)
                          ? std::string(::strsignal(WTERMSIG(status)))
                          : "exit status " + std::to_string(WEXITSTATUS(status));
    result.error = "libonnx crashed (" + how +
                   ") while checking this model: it is malformed in a way ONNX's "
                   "checker does not catch; re-export it from its framework";
    return result;
  }
  result.ok = reply[0] == 1;
  if (result.ok) {
    onnx::ModelProto inferred;
    if (!inferred.ParseFromString(serialized)) {
      result.ok = false;
      result.error = "internal error: the ONNX validation process returned an unreadable model";
      return result;
    }
    // The inferred model, with the initializers the child left out.
    inferred.mutable_graph()->mutable_initializer()->Swap(
        model.mutable_graph()->mutable_initializer());
    model.Swap(&inferred);
  }
  return result;
#else
  return checkAndInferInProcess(model, strict);
#endif
}
