#!/usr/bin/env bash
# The main job on the bundled example: prepares and plans
# examples/cnn_transformer.mlir for Ascend910 under allow_mix_precision with
# examples/mixlist.json, prints the decision table, and writes the planned IR
# and the report (JSON, text, Graphviz, HTML, lockfile) to build/demo/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

"$root/scripts/install-deps.sh" >&2
"$root/scripts/build.sh" prec-opt >&2
out="$root/build/demo"
mkdir -p "$out"
pipeline="soc_version=Ascend910 precision_mode=allow_mix_precision"
pipeline+=" modify_mixlist=$root/examples/mixlist.json report=$out/report.json"
echo "==> prec-opt examples/cnn_transformer.mlir --prec-graph-prepare --prec-precision-pipeline=\"$pipeline\"" >&2
"$root/build/bin/prec-opt" "$root/examples/cnn_transformer.mlir" --prec-graph-prepare \
  --prec-precision-pipeline="$pipeline" -o "$out/planned.mlir"
cat "$out/report.txt"
echo
echo "Planned IR: $out/planned.mlir"
echo "Report: $out/report.json, report.html, report.dot (picture), report.lock.cfg (lockfile)"
