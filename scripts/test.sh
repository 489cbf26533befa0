#!/usr/bin/env bash
# Installs dependencies, builds AscendPrec and runs every test through ctest:
# each lit file, each GoogleTest case, the install-consumer project and the
# generated-docs check. Ends with "summary: N passed, M failed".
#
# Usage: scripts/test.sh [--sanitize]   (--sanitize: ASan+UBSan build in build-asan)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

build_dir="$root/build"
for arg in "$@"; do
  if [ "$arg" = --sanitize ]; then
    build_dir="$root/build-asan"
    # Our instrumented code inlines LLVM's BumpPtrAllocator, which poisons new
    # slabs; Debian's libMLIR.so is not instrumented and allocates from those
    # slabs without unpoisoning. Ignore manual poisoning (every other ASan
    # check stays on) to avoid that false use-after-poison.
    # A 32 MB quarantine (256 MB by default) still holds the blocks freed
    # last, where use-after-free is caught, and keeps each process small:
    # the ONNX checker runs in a fork()ed child per model, and forking a
    # process of 560 MB cost more than its planning. The sanitizer sweep of
    # ONNX's node tests takes 40% less time (bench/README.md, "CI time").
    export ASAN_OPTIONS="allow_user_poisoning=0:quarantine_size_mb=32${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
  fi
done

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" --build-dir "$build_dir" "$@"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# ctest runs one lit per file in parallel, with test-time recording off (the
# runs would race on this file); drop any copy an older build left behind.
rm -f "$build_dir/test/.lit_test_times.txt"
(cd "$build_dir" && ctest --output-on-failure -j "$(nproc)") 2>&1 | tee "$log" || status=$?
status=${PIPESTATUS[0]:-$status}

line=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1 || true)
if [ -z "$line" ]; then
  echo "summary: 0 passed, 1 failed (ctest printed no result line)"
  exit 1
fi
failed=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
total=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\2/' <<<"$line")
echo "summary: $((total - failed)) passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
