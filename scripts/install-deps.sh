#!/usr/bin/env bash
# Installs every Debian package that building and testing AscendPrec needs.
# Idempotent: when dpkg already reports every package installed, apt is not touched.
# Usage: scripts/install-deps.sh            (run as root, or with sudo available)
set -euo pipefail

# Required to build (LLVM/MLIR 22 comes from Debian's bookworm security suite).
REQUIRED=(
  cmake ninja-build python3
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  nlohmann-json3-dev libgtest-dev libgmock-dev
  libonnx-dev libprotobuf-dev protobuf-compiler
  python3-dev pybind11-dev
)
# Faster builds; the build falls back to the system compiler without them.
FAST=(clang-22 lld-22 ccache)
# Sanitizer and libFuzzer runtimes for clang-22 (scripts/test.sh --sanitize, fuzzers).
RUNTIMES=(libclang-rt-22-dev)
# Test-only: lit timeouts, ONNX model generation, the ONNX test-data sweep,
# the HTML report's browser test (headless chromium) and the Python
# package's tests (pytest; numpy is also what the package hands arrays in).
TESTS=(python3-psutil python3-onnx python3-numpy python3-pytest libonnx-testdata chromium
       python3-distributed espeak-ng python3-pil fonts-dejavu-core)

PACKAGES=("${REQUIRED[@]}" "${FAST[@]}" "${RUNTIMES[@]}" "${TESTS[@]}")

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg -s "$pkg" >/dev/null 2>&1 ||
     ! dpkg -s "$pkg" 2>/dev/null | grep -q '^Status: install ok installed'; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present, skipping apt"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-deps: missing packages (${missing[*]}) and not root; rerun as root" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
