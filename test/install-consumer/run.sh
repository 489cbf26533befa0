#!/usr/bin/env bash
# Installs an AscendPrec build into a scratch prefix, then configures, builds
# and runs test/install-consumer against it, checking what it prints.
# Then plans and runs the bundled example through the installed engine
# (session-consumer, C++) and the installed Python package, and checks that
# both give prec-compile's plan and outputs bit for bit.
# Usage: run.sh BUILD_DIR WORK_DIR CXX_COMPILER [python|no-python]
# (no-python: the build has no Python package, as the sanitizer build)
set -euo pipefail
build_dir=$1 work=$2 cxx=$3 python=${4:-python}
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

# The engine through its C++ API and through Python, against the CLI.
model="$here/../../examples/cnn_transformer.mlir"
export XDG_CACHE_HOME="$work/cache"
"$work/build/session-consumer" "$model" "$work/cpp" >"$work/cpp.log"
"$work/prefix/bin/prec-compile" "$model" --soc_version=Ascend910B3 \
  --precision_mode=allow_mix_precision --run --run-seed=7 --output="$work/cli" --quiet >/dev/null
fronts=cpp
if [ "$python" = python ]; then
fronts="cpp py"
site=$(find "$work/prefix/lib" -maxdepth 3 -type d -name dist-packages | head -n 1)
(cd "$work" && PYTHONPATH="$site" /usr/bin/python3 -c '
import sys, ascendprec
plan = ascendprec.plan(sys.argv[1], soc_version="Ascend910B3",
                       precision_mode="allow_mix_precision")
plan.run(seed=7)
plan.write(sys.argv[2])
print("python:", ascendprec.__file__)
' "$model" "$work/py")
case "$(cd "$work" && PYTHONPATH="$site" /usr/bin/python3 -c 'import ascendprec; print(ascendprec.__file__)')" in
  "$work/prefix/"*) ;;
  *) echo "install-consumer: ascendprec was not imported from the install prefix" >&2; exit 1 ;;
esac
fi
for front in $fronts; do
  cmp "$work/cli/run/output_0.pb" "$work/$front/run/output_0.pb"
  /usr/bin/python3 - "$work/cli" "$work/$front" <<'PY'
import json, sys
def load(folder, name):
    with open(folder + "/" + name) as f:
        return json.load(f)
cli, other = sys.argv[1], sys.argv[2]
for a, b in zip(load(cli, "report.json")["nodes"], load(other, "report.json")["nodes"], strict=True):
    for key in ("name", "compute_dtype", "rule", "source", "est_us", "rel_err"):
        assert a.get(key) == b.get(key), (other, a["name"], key, a.get(key), b.get(key))
assert load(cli, "accuracy.json")["outputs"] == load(other, "accuracy.json")["outputs"], other
PY
done
echo "install-consumer: the engine ($fronts) gives the CLI's plan and outputs"
echo "install-consumer: OK"
