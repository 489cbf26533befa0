#!/usr/bin/env python3
"""SIGTERM (and SIGINT, SIGHUP) at random moments of prec-compile runs into
an existing output folder (issue 55): whatever the moment, the folder holds
the old outputs or the new ones, complete, and never a staging folder.

  signal_points.py PREC_COMPILE MODEL WORKDIR COUNT [SEED]

The runs' length is measured first; the signals are spread over the whole
run, half of them in its last 40% (writing the outputs and moving them in).
A folder is "complete" when its manifest lists one version per file and
every file matches its listed size and SHA-256: a commit cut half-way
would leave two versions listed, a half-written file would not match.
Prints one summary line; exits 1 on the first failure."""

import glob
import hashlib
import os
import random
import signal
import subprocess
import sys
import time

MANIFEST = ".prec-compile-manifest"


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def check_complete(folder, context):
    left = glob.glob(os.path.join(folder, ".prec-compile-staging-*"))
    if left:
        fail("%s: staging left behind: %s" % (context, left))
    with open(os.path.join(folder, MANIFEST)) as stream:
        lines = [l.split(" ", 2) for l in stream.read().splitlines()
                 if l and not l.startswith("#")]
    names = [name for _, _, name in lines]
    if len(names) != len(set(names)):
        fail("%s: the manifest lists two versions of a file: a commit was cut" % context)
    for digest, size, name in lines:
        path = os.path.join(folder, name)
        with open(path, "rb") as stream:
            data = stream.read()
        if len(data) != int(size) or hashlib.sha256(data).hexdigest() != digest:
            fail("%s: %s does not match the manifest" % (context, name))
    with open(os.path.join(folder, "notes.txt")) as stream:
        if stream.read() != "the user's\n":
            fail("%s: the user's notes.txt changed" % context)
    return sorted(names)


def main():
    prec_compile, model, workdir, count = sys.argv[1:5]
    count = int(count)
    rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 55)
    folder = os.path.join(workdir, "out")
    command = [prec_compile, model, "--soc_version=Ascend910B3", "--run",
               "--kernel-cache=" + os.path.join(workdir, "kernels"), "--output=" + folder]
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "notes.txt"), "w") as stream:
        stream.write("the user's\n")
    # Warm the kernel cache, then time a run.
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    started = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    length = time.monotonic() - started
    outputs = check_complete(folder, "after a whole run")
    killed = finished = 0
    signals = [signal.SIGTERM] * 8 + [signal.SIGINT, signal.SIGHUP]
    for i in range(count):
        at = rng.uniform(0.6, 1.1) * length if i % 2 else rng.uniform(0.0, 1.1) * length
        sig = rng.choice(signals)
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(at)
        proc.send_signal(sig)
        _, errors = proc.communicate(timeout=300)
        context = "%s at %.3f s (run %d)" % (signal.Signals(sig).name, at, i)
        if proc.returncode == -sig:
            killed += 1
        elif proc.returncode == 0:
            finished += 1
        else:
            fail("%s: exit status %d: %s" % (context, proc.returncode, errors.decode()[-400:]))
        if check_complete(folder, context) != outputs:
            fail("%s: the folder holds other outputs than a whole run's" % context)
    print("ok: %d signals over %.2f s runs: %d runs died of them, %d had finished; "
          "every time the folder held whole outputs and no staging folder"
          % (count, length, killed, finished))


if __name__ == "__main__":
    main()
