#!/usr/bin/env bash
# Installs an AscendPrec build into a scratch prefix, then configures, builds
# and runs test/install-consumer against it, checking what it prints.
# Usage: run.sh BUILD_DIR WORK_DIR CXX_COMPILER
set -euo pipefail
build_dir=$1 work=$2 cxx=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

rm -rf "$work"
mkdir -p "$work"
cmake --install "$build_dir" --prefix "$work/prefix" >"$work/install.log"
cmake -G Ninja -S "$here" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$work/prefix" >"$work/configure.log"
cmake --build "$work/build"
output=$("$work/build/consumer")
printf '%s\n' "$output"

# The folded weight is named after its Cast; Conv2D is cube work, Relu vector.
expected="conv1.weight.cast: Const on vector
conv1: Conv2D on cube
relu1: Relu on vector"
if [ "$output" != "$expected" ]; then
  printf 'install-consumer: unexpected output; expected:\n%s\n' "$expected" >&2
  exit 1
fi
echo "install-consumer: OK"
