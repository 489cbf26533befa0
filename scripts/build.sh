#!/usr/bin/env bash
# Configures and builds AscendPrec with the fastest toolchain present:
# clang-22 + lld-22 + ccache when installed, else the system compiler.
#
# Usage: scripts/build.sh [--sanitize] [--build-dir DIR] [ninja targets...]
#   --sanitize     AddressSanitizer + UBSan build (default dir: build-asan)
#   --build-dir    where to build (default: build, or build-asan)
# Environment: ASCENDPREC_JOBS (default: nproc).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

sanitize=OFF
build_dir=""
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --sanitize) sanitize=ON ;;
    --build-dir) build_dir="$2"; shift ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) targets+=("$1") ;;
  esac
  shift
done
if [ -z "$build_dir" ]; then
  if [ "$sanitize" = ON ]; then build_dir="$root/build-asan"; else build_dir="$root/build"; fi
fi

cmake_args=(-G Ninja -S "$root" -B "$build_dir" -DASCENDPREC_SANITIZE="$sanitize")
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  if [ "$sanitize" = ON ]; then
    cmake_args+=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
  else
    cmake_args+=(-DCMAKE_BUILD_TYPE=Release)
  fi
  if command -v clang++-22 >/dev/null 2>&1; then
    cmake_args+=(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22)
    if [ -x /usr/lib/llvm-22/bin/ld.lld ]; then
      lld="--ld-path=/usr/lib/llvm-22/bin/ld.lld"
      cmake_args+=("-DCMAKE_EXE_LINKER_FLAGS=$lld" "-DCMAKE_SHARED_LINKER_FLAGS=$lld"
                   "-DCMAKE_MODULE_LINKER_FLAGS=$lld")
    fi
  elif [ "$sanitize" = ON ]; then
    echo "build.sh: clang-22 not found; the sanitizer build uses the system compiler" >&2
  fi
  if command -v ccache >/dev/null 2>&1; then
    cmake_args+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
fi

# ccache keys without the clone's absolute path (CI builds a fresh clone in
# another folder on the same machine): paths under the repository are
# hashed relative to it, and the build folder stays out of the hash.
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
cmake "${cmake_args[@]}" >/dev/null
jobs=${ASCENDPREC_JOBS:-$(nproc)}
cmake --build "$build_dir" -j "$jobs" ${targets[@]+--target "${targets[@]}"}
