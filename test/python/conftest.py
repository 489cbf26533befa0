"""Fixtures for the ascendprec package's tests (ctest runs each file).

ASCENDPREC_BUILD: the build folder (its python/ holds the package, its bin/
prec-compile); ASCENDPREC_SRC: the source tree. Compiled kernels go to a
cache folder of the test run, never the user's.
"""

import os
import subprocess
import sys

import pytest

BUILD = os.environ.get("ASCENDPREC_BUILD", os.path.join(os.path.dirname(__file__), "../../build"))
SRC = os.environ.get("ASCENDPREC_SRC", os.path.join(os.path.dirname(__file__), "../.."))
sys.path.insert(0, os.path.join(BUILD, "python"))

import ascendprec  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def kernel_cache(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kernels")
    ascendprec.set_kernel_cache(str(folder))
    os.environ["XDG_CACHE_HOME"] = str(folder)  # for prec-compile's runs
    return folder


@pytest.fixture(scope="session")
def example_onnx(tmp_path_factory):
    """The bundled example model (a CNN stage and a transformer block)."""
    path = tmp_path_factory.mktemp("models") / "example.onnx"
    subprocess.run(["/usr/bin/python3", os.path.join(SRC, "examples/make_example_model.py"),
                    str(path)], check=True, capture_output=True)
    return path


@pytest.fixture(scope="session")
def example_mlir():
    return os.path.join(SRC, "examples/cnn_transformer.mlir")


@pytest.fixture(scope="session")
def mixlist():
    return os.path.join(SRC, "examples/mixlist.json")


@pytest.fixture(scope="session")
def prec_compile():
    return os.path.join(BUILD, "bin/prec-compile")
