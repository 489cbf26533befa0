"""Ctrl-C stops long work between kernel launches and plans: the call
raises KeyboardInterrupt and nothing is written."""

import os
import subprocess
import sys
import textwrap

from conftest import BUILD


def test_sigint_interrupts_a_mode_comparison(example_onnx, tmp_path):
    script = textwrap.dedent("""
        import os, signal, sys, threading, time
        sys.path.insert(0, os.path.join(sys.argv[1], "python"))
        import ascendprec
        ascendprec.set_kernel_cache("off")   # every mode compiles: seconds of work
        started = time.monotonic()
        events = []
        def progress(event, text):
            events.append(event)
            if text.startswith("compare precision modes"):
                # The interrupt arrives while the modes are planned and run.
                threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
        try:
            comparison = ascendprec.compare_modes(sys.argv[2], soc_version="Ascend910B3",
                                                  progress=progress)
            comparison.write(sys.argv[3])
            print("finished")
        except KeyboardInterrupt:
            print("interrupted after %.1f s" % (time.monotonic() - started))
        print("exists" if os.path.exists(sys.argv[3]) else "nothing written")
    """)
    out = tmp_path / "out"
    finished = subprocess.run([sys.executable, "-c", script, BUILD, str(example_onnx), str(out)],
                              capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    lines = finished.stdout.split("\n")
    assert lines[0].startswith("interrupted after"), finished.stdout
    assert lines[1] == "nothing written"
    assert not out.exists()
