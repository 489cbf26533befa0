# -*- Python -*-
# lit configuration for AscendPrec's FileCheck and -verify-diagnostics tests.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "AscendPrec"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ascendprec_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "install-consumer",
                   "inputs", "mode-matrix"]

config.substitutions.append(("%ascendprec_src", config.ascendprec_src_root))
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["prec-opt"], [config.ascendprec_tools_dir])
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(
    ("%prec_opt", os.path.join(config.ascendprec_tools_dir, "prec-opt")))
config.substitutions.append(
    ("%prec_compile", os.path.join(config.ascendprec_tools_dir, "prec-compile")))
config.substitutions.append(
    ("%expect_exit", config.python_executable + " " +
     os.path.join(config.ascendprec_src_root, "scripts", "expect-exit.py")))
llvm_config.add_tool_substitutions(["prec-compile"], [config.ascendprec_tools_dir])

# Tests read the source tree's operator library, never an installed one.
config.environment["ASCENDPREC_DATA_DIR"] = os.path.join(
    config.ascendprec_src_root, "data", "ops")

# prec-compile fits its output to $COLUMNS (default 100): the tests read it
# one line per sentence and table row, as on a wide terminal, and
# terminal-width.test checks the default width.
config.environment["COLUMNS"] = "1000"

# Compiled kernels are cached in the build tree, never in the user's
# ~/.cache (kernel-cache.test gives folders of its own).
config.environment["XDG_CACHE_HOME"] = os.path.join(config.ascendprec_obj_root, "test",
                                                    "xdg-cache")

# ONNX test models are built with Debian's python3-onnx (/usr/bin/python3; the
# first python3 on PATH may be another one without the module).
import subprocess
system_python = "/usr/bin/python3"
if os.path.exists(system_python) and subprocess.call(
        [system_python, "-c", "import onnx, numpy"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
    config.available_features.add("python-onnx")
config.substitutions.append(("%system_python", system_python))
llvm_config.add_tool_substitutions(["prec-translate"], [config.ascendprec_tools_dir])

# prec-compile --data runs in the Python package next to the tools (not in
# the sanitizer build, which leaves the package out).
if os.path.exists(os.path.join(config.ascendprec_tools_dir, "..", "python", "ascendprec",
                               "_cli.py")):
    config.available_features.add("python-package")

# The fault suite's signal test: 200 moments in the release build (issue
# 55); the sanitizer build, whose runs take ten times as long, checks 40.
sanitized = getattr(config, "ascendprec_sanitize", "OFF").upper() in ("ON", "1", "TRUE", "YES")
config.substitutions.append(("%fault_signal_count", "40" if sanitized else "200"))

# `script` gives a command a pseudo-terminal (the progress test).
import shutil
if shutil.which("script"):
    config.available_features.add("script")

# Headless Chromium for the HTML report's browser test.
chromium = shutil.which("chromium")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", chromium))

# Running plans on the host (prec-compile --run): the JIT compiles for the
# host's own architecture.
import platform
if platform.machine() in ("x86_64", "AMD64", "aarch64", "arm64"):
    config.available_features.add("jit")
# ONNX's own test models with inputs and expected outputs (Debian's
# libonnx-testdata).
onnx_testdata = "/usr/share/libonnx-testdata/data"
if os.path.isdir(onnx_testdata):
    config.available_features.add("onnx-testdata")
    config.substitutions.append(("%onnx_testdata", onnx_testdata))
