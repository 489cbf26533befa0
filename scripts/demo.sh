#!/usr/bin/env bash
# The main job on the bundled example: builds prec-opt and runs the
# prec-graph-prepare pipeline on examples/cnn_transformer.mlir, printing the
# resulting graph.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

"$root/scripts/install-deps.sh" >&2
"$root/scripts/build.sh" prec-opt >&2
echo "==> prec-opt examples/cnn_transformer.mlir --prec-graph-prepare" >&2
"$root/build/bin/prec-opt" "$root/examples/cnn_transformer.mlir" --prec-graph-prepare
