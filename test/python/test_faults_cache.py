"""Issue 55, under Python: a damaged kernel cache never kills the
interpreter. Entries with bits flipped in their code are skipped, each with
a PlanWarning, and rebuilt; plan.run() gives the bits of a run without a
cache. The runs are fresh processes: one process links each kernel once and
never reads the cache for it again."""

import glob
import os
import random
import subprocess
import sys
import textwrap

from conftest import BUILD

RUN = textwrap.dedent("""
    import sys, warnings, numpy as np, ascendprec
    ascendprec.set_kernel_cache(sys.argv[2])
    image = np.linspace(-1, 1, 3 * 16 * 16, dtype=np.float32).reshape(1, 3, 16, 16)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = ascendprec.plan(sys.argv[1], soc_version="Ascend310P3",
                              precision_mode="force_fp16").run({"image": image})
    notes = [w for w in caught if "kernel cache: ignored" in str(w.message)]
    assert all(issubclass(w.category, ascendprec.PlanWarning) for w in notes)
    sys.stdout.buffer.write(len(notes).to_bytes(4, "little") + out.outputs["out"].tobytes())
""")


def run_in_child(model, folder):
    child = subprocess.run([sys.executable, "-c", RUN, str(model), str(folder)],
                           capture_output=True, timeout=300,
                           env=dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python")))
    assert child.returncode == 0, child.stderr.decode()[-2000:]
    return int.from_bytes(child.stdout[:4], "little"), child.stdout[4:]


def test_a_damaged_kernel_cache_warns_and_runs_the_same(example_onnx, tmp_path):
    folder = tmp_path / "kernels"
    uncached = run_in_child(example_onnx, "off")[1]
    assert run_in_child(example_onnx, folder) == (0, uncached)
    entries = sorted(glob.glob(str(folder / "*.kernels")))
    assert len(entries) >= 4
    rng = random.Random(55)
    for path in entries[:4]:
        data = bytearray(open(path, "rb").read())
        start = data.index(b"\n", data.index(b"\nobject ") + 1) + 1  # the code
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(start, len(data))] ^= 1 << rng.randrange(8)
        open(path, "wb").write(data)
    assert run_in_child(example_onnx, folder) == (4, uncached)
    # Rebuilt: the next run finds every entry whole.
    assert run_in_child(example_onnx, folder) == (0, uncached)
