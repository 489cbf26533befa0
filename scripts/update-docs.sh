#!/usr/bin/env bash
# Copies the docs TableGen generated (dialect, ops, attributes, passes) from a
# build into docs/generated/, or with --check fails when they differ.
# Usage: scripts/update-docs.sh [--check] [BUILD_DIR]   (default: build)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
build_dir=${1:-$root/build}

pairs=("docs/Dialects/AscendDialect.md:AscendDialect.md"
       "docs/Dialects/KernelDialect.md:KernelDialect.md"
       "docs/AscendPrecPasses.md:AscendPrecPasses.md"
       "docs/AscendPrecConversionPasses.md:AscendPrecConversionPasses.md")
status=0
mkdir -p "$root/docs/generated"
for pair in "${pairs[@]}"; do
  src="$build_dir/${pair%%:*}" dst="$root/docs/generated/${pair##*:}"
  if [ ! -f "$src" ]; then
    echo "update-docs: $src is missing; build the ascendprec-doc target first" >&2
    exit 1
  fi
  if [ $check = 1 ]; then
    if ! cmp -s "$src" "$dst"; then
      echo "update-docs: docs/generated/${pair##*:} is stale; run scripts/update-docs.sh" >&2
      status=1
    fi
  else
    cp "$src" "$dst"
  fi
done
# The option reference comes from the option table itself.
options_md=$("$build_dir/bin/prec-opt" --print-option-reference)
if [ $check = 1 ]; then
  if [ "$options_md" != "$(cat "$root/docs/generated/options.md" 2>/dev/null)" ]; then
    echo "update-docs: docs/generated/options.md is stale; run scripts/update-docs.sh" >&2
    status=1
  fi
else
  printf '%s\n' "$options_md" > "$root/docs/generated/options.md"
fi
exit $status
