#!/usr/bin/env bash
# The main job on the bundled example: builds the example ONNX model
# (examples/make_example_model.py, fixed seed) and runs prec-compile on it for
# Ascend910 under allow_mix_precision with examples/mixlist.json. Prints the
# per-op summary; the outputs go to build/demo/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

"$root/scripts/install-deps.sh" >&2
"$root/scripts/build.sh" prec-compile >&2
mkdir -p "$root/build"
model="$root/build/example.onnx"
/usr/bin/python3 "$root/examples/make_example_model.py" "$model" >&2
echo "==> prec-compile build/example.onnx --soc_version=Ascend910 --precision_mode=allow_mix_precision --modify_mixlist=examples/mixlist.json --output=build/demo --run" >&2
"$root/build/bin/prec-compile" "$model" --soc_version=Ascend910 \
  --precision_mode=allow_mix_precision \
  --modify_mixlist="$root/examples/mixlist.json" --output="$root/build/demo" --run
