//===- DatasetHandoff.cpp - prec-compile --data runs in the Python package ===//

#include "DatasetHandoff.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ascendprec::driver {

const std::vector<std::string> &datasetFlags() {
  static const std::vector<std::string> flags = {
      "data", "data-axis", "labels", "scheduler", "jobs", "reference-cache", "limit",
      "class-axis"};
  return flags;
}

namespace {

/// The folder holding the `ascendprec` package for this executable.
std::string packageRoot() {
  static int anchor;
  std::string exe = llvm::sys::fs::getMainExecutable("prec-compile", &anchor);
  fs::path prefix = fs::path(exe).parent_path().parent_path();
  std::error_code ec;
  if (fs::exists(prefix / "python" / "ascendprec" / "_cli.py", ec))
    return (prefix / "python").string();
  for (const fs::directory_entry &entry : fs::directory_iterator(prefix / "lib", ec)) {
    fs::path candidate = entry.path() / "dist-packages";
    if (entry.path().filename().string().rfind("python3", 0) == 0 &&
        fs::exists(candidate / "ascendprec" / "_cli.py", ec))
      return candidate.string();
  }
  return "";
}

} // namespace

void handOffToDatasetRun(const std::vector<std::string> &args, std::string &error) {
  std::string root = packageRoot();
  if (root.empty()) {
    error = "--data runs in the Python package ascendprec, which is not installed next to "
            "this prec-compile (build with -DASCENDPREC_BUILD_PYTHON=ON, the default; the "
            "sanitizer build leaves it out)";
    return;
  }
  const char *old = std::getenv("PYTHONPATH");
  std::string path = root + (old && *old ? ":" + std::string(old) : "");
  ::setenv("PYTHONPATH", path.c_str(), 1);
  std::vector<char *> argv;
  std::string python = "/usr/bin/python3", module = "-m", name = "ascendprec._cli";
  argv.push_back(python.data());
  argv.push_back(module.data());
  argv.push_back(name.data());
  std::vector<std::string> copies = args;
  for (std::string &arg : copies)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  // The signals prec-compile blocked for its cleanup thread
  // (InterruptCleanup.cpp) would stay blocked in Python, which handles
  // them itself: a SIGTERM would wait for the run's end.
  sigset_t none;
  sigemptyset(&none);
  ::pthread_sigmask(SIG_SETMASK, &none, nullptr);
  ::execv(python.c_str(), argv.data());
  error = "cannot start /usr/bin/python3 for --data: " + std::string(std::strerror(errno)) +
          " (install Debian's python3 and python3-numpy)";
}

} // namespace ascendprec::driver
