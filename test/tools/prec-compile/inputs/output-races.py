#!/usr/bin/env python3
"""Drives prec-compile the way an impatient or busy user does and checks that
its output folder stays safe (issue 9):

  output-races.py interrupt PREC_COMPILE GEN_GRAPH WORKDIR
      SIGINT and SIGTERM while a large model is being planned: the process
      dies of the signal, its staging folder is gone, a folder it created
      is gone, and an existing folder keeps exactly its previous files.
  output-races.py concurrent PREC_COMPILE MODEL WORKDIR ROUNDS
      two runs into one folder at once, ROUNDS times: both succeed and the
      folder holds one complete set of outputs.

Prints one line per check and exits 1 on the first failure."""

import glob
import os
import signal
import subprocess
import sys
import time


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def staging_in(folder):
    return glob.glob(os.path.join(folder, ".prec-compile-staging-*"))


def listing(folder):
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else None


def interrupt_once(prec_compile, model, folder, sig):
    before = listing(folder)
    proc = subprocess.Popen([prec_compile, model, "--soc_version=Ascend910",
                             "--precision_mode=allow_mix_precision",
                             "--output=" + folder],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while not staging_in(folder):
        if proc.poll() is not None:
            fail(f"run ended (status {proc.returncode}) before it could be "
                 f"interrupted: {proc.stderr.read().decode()[-300:]}")
        if time.time() > deadline:
            proc.kill()
            fail("no staging folder appeared within 120 s")
        time.sleep(0.01)
    time.sleep(0.2)  # inside planning
    proc.send_signal(sig)
    proc.wait(timeout=120)
    if proc.returncode != -sig:
        fail(f"expected death by signal {sig}, got status {proc.returncode}")
    if listing(folder) != before:
        fail(f"{folder} changed: before {before}, after {listing(folder)}")
    print(f"ok: {signal.Signals(sig).name} during planning into "
          f"{'an existing' if before is not None else 'a new'} folder left it as it was")


def interrupt(prec_compile, gen_graph, workdir):
    model = os.path.join(workdir, "big.mlir")
    subprocess.check_call([sys.executable, gen_graph, "transformer", "100000", model],
                          stdout=subprocess.DEVNULL)
    fresh = os.path.join(workdir, "new", "nested", "out")
    interrupt_once(prec_compile, model, fresh, signal.SIGINT)
    if os.path.exists(os.path.join(workdir, "new")):
        fail("the folders the interrupted run created are still there")
    existing = os.path.join(workdir, "existing")
    os.makedirs(existing)
    with open(os.path.join(existing, "notes.txt"), "w") as f:
        f.write("keep\n")
    interrupt_once(prec_compile, model, existing, signal.SIGTERM)
    interrupt_once(prec_compile, model, existing, signal.SIGINT)


def concurrent(prec_compile, model, workdir, rounds):
    folder = os.path.join(workdir, "shared")
    for r in range(rounds):
        modes = ["force_fp16", "allow_mix_precision"]
        procs = [subprocess.Popen([prec_compile, model, "--soc_version=Ascend910",
                                   "--precision_mode=" + m, "--quiet",
                                   "--output=" + folder],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                 for m in modes]
        for p in procs:
            p.wait(timeout=120)
            if p.returncode != 0:
                fail(f"round {r}: a run failed with status {p.returncode}: "
                     f"{p.stderr.read().decode()[-400:]}")
        files = [f for f in listing(folder) if not f.startswith(".prec-compile")]
        if len(files) != 8 or staging_in(folder):
            fail(f"round {r}: unexpected folder contents {listing(folder)}")
    print(f"ok: {rounds} rounds of two concurrent runs into one folder all succeeded")


if __name__ == "__main__":
    if sys.argv[1] == "interrupt":
        interrupt(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "concurrent":
        concurrent(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    else:
        fail("unknown mode " + sys.argv[1])
