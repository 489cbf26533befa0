"""Issue 55, fork safety: a plan made (and run) before a fork runs in the
child, with multiprocessing's fork, spawn and forkserver and a bare
os.fork(), and gives the parent's bits (docs/execution.md, "fork")."""

import os
import subprocess
import sys
import textwrap

import pytest

from conftest import BUILD

SCRIPT = textwrap.dedent("""
    import multiprocessing, os, sys
    import numpy as np
    import ascendprec

    MODEL, METHOD, WARM = sys.argv[1], sys.argv[2], sys.argv[3] == "warm"
    image = np.linspace(-1, 1, 3 * 16 * 16, dtype=np.float32).reshape(1, 3, 16, 16)
    # Made at module level, as users write it; "warm" also runs it first
    # (its runner and its two-thread pool exist before the fork).
    plan = ascendprec.plan(MODEL, soc_version="Ascend910B3", precision_mode="force_fp16")
    if WARM:
        plan.run({"image": image}, threads=2)
        ascendprec.evaluate(plan, [{"image": image}], threads=2)

    def child(queue):
        out = plan.run({"image": image}, threads=2).outputs["out"]
        fresh = ascendprec.plan(MODEL, soc_version="Ascend310P3").run({"image": image})
        queue.put((out.tobytes(), fresh.outputs["out"].shape))

    if __name__ == "__main__":
        expected = plan.run({"image": image}, threads=2).outputs["out"].tobytes()
        if METHOD == "os.fork":
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(read)
                out = plan.run({"image": image}, threads=2).outputs["out"]
                os.write(write, b"same" if out.tobytes() == expected else b"differs")
                os._exit(0)
            os.close(write)
            answer = os.read(read, 16).decode()
            os.waitpid(pid, 0)
            print(answer)
        else:
            context = multiprocessing.get_context(METHOD)
            queue = context.Queue()
            process = context.Process(target=child, args=(queue,))
            process.start()
            got, shape = queue.get(timeout=240)
            process.join(60)
            print("same" if got == expected and process.exitcode == 0 else "differs")
""")


@pytest.mark.parametrize("method,warm", [("fork", "cold"), ("fork", "warm"),
                                         ("os.fork", "warm"), ("spawn", "warm"),
                                         ("forkserver", "cold")])
def test_a_plan_made_before_a_fork_runs_in_the_child(example_onnx, tmp_path, method, warm):
    script = tmp_path / "fork_child.py"
    script.write_text(SCRIPT)
    environment = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"))
    # A deadlock (the bug this guards against) fails the test, not the run.
    done = subprocess.run([sys.executable, str(script), str(example_onnx), method, warm],
                          capture_output=True, text=True, timeout=300, env=environment,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "same", done.stdout + done.stderr[-2000:]
