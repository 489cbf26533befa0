#!/usr/bin/env bash
# Runs AscendPrec's libFuzzer targets (clang builds only).
#
# Usage: scripts/fuzz.sh [--build-dir DIR] [--seconds N | --runs N] [target...]
#   default: every target for 60 s each, in build/.
# Each target starts from fuzz/corpus/<target>/ and the matching test inputs;
# a crash writes crash-* into the scratch corpus folder and exits non-zero.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="$root/build"
limit=(-max_total_time=60)
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build_dir="$2"; shift ;;
    --seconds) limit=(-max_total_time="$2"); shift ;;
    --runs) limit=(-runs="$2"); shift ;;
    *) targets+=("$1") ;;
  esac
  shift
done
if [ ${#targets[@]} -eq 0 ]; then
  targets=(modify-mixlist keep-dtype customize-dtypes impl-mode-ini ops-info
           platform-config session-options onnx-import)
fi

inputs="$root/test/Policy/inputs"
seeds_for() {
  case "$1" in
    modify-mixlist) ls "$inputs"/*mixlist*.json "$inputs"/seed002-*.json ;;
    keep-dtype) ls "$inputs"/*keep_dtype*.cfg ;;
    customize-dtypes) ls "$inputs"/*customize*.cfg ;;
    impl-mode-ini) ls "$inputs"/*op_precision*.ini "$root"/data/ops/*/impl_mode/*.ini ;;
    ops-info) ls "$root"/data/ops/*/*.json ;;
    platform-config) ls "$root"/data/ops/*/platform_config/*.ini ;;
    session-options) ls "$inputs"/*session*.json ;;
    # Debian's ONNX test models that fit the length limit, when installed.
    onnx-import) find /usr/share/libonnx-testdata/data/pytorch-operator \
                   /usr/share/libonnx-testdata/data/pytorch-converted \
                   -name model.onnx -size -4096c 2>/dev/null || true ;;
  esac
}

# The instrumented code inlines LLVM's allocator, whose memory the
# uninstrumented libMLIR.so poisons and unpoisons (see docs/building.md).
export ASAN_OPTIONS="${ASAN_OPTIONS:-allow_user_poisoning=0}"
status=0
for target in "${targets[@]}"; do
  binary="$build_dir/bin/fuzz-$target"
  if [ ! -x "$binary" ]; then
    echo "fuzz.sh: $binary not built (fuzzers need clang)" >&2
    exit 1
  fi
  work=$(mktemp -d)
  mkdir -p "$work/corpus"
  cp "$root"/fuzz/corpus/"$target"/* "$work/corpus/" 2>/dev/null || true
  # Seeds may share a file name (every ONNX test model is model.onnx).
  for seed in $(seeds_for "$target"); do
    cp "$seed" "$work/corpus/$(printf '%s' "$seed" | md5sum | cut -c1-12)-$(basename "$seed")"
  done
  echo "== fuzz-$target ${limit[*]}"
  if (cd "$work" && "$binary" "${limit[@]}" -max_len=4096 -print_final_stats=1 \
        "$work/corpus" 2>"$work/log"); then
    grep -E "stat::number_of_executed_units|Done [0-9]+ runs" "$work/log" | tail -2 || true
  else
    status=1
    tail -40 "$work/log"
    echo "fuzz.sh: fuzz-$target failed; crash inputs are in $work" >&2
    continue
  fi
  rm -rf "$work"
done
exit $status
