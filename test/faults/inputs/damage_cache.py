#!/usr/bin/env python3
"""Damages a kernel cache the ways issue 55's probe did:

  damage_cache.py FOLDER   flips 1-4 bits inside the object (executable)
                           section of six entries, and makes one entry a
                           directory, one a symlink to /dev/zero, one a FIFO
                           and, as root, one owned by nobody.

Prints what it did, one line each (the test checks the count)."""

import glob
import os
import random
import sys

folder = sys.argv[1]
entries = sorted(glob.glob(os.path.join(folder, "*.kernels")))
rng = random.Random(55)
if len(entries) < 10:
    sys.exit("need at least 10 entries, found %d" % len(entries))
for path in entries[:6]:
    with open(path, "rb") as stream:
        data = bytearray(stream.read())
    start = data.index(b"\nobject ") + 1
    start = data.index(b"\n", start) + 1  # the object's first byte
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(start, len(data))
        data[at] ^= 1 << rng.randrange(8)
    with open(path, "wb") as stream:
        stream.write(data)
    print("flipped bits in the object of", os.path.basename(path))
os.remove(entries[6])
os.mkdir(entries[6])
print("directory", os.path.basename(entries[6]))
os.remove(entries[7])
os.symlink("/dev/zero", entries[7])
print("symlink to /dev/zero", os.path.basename(entries[7]))
os.remove(entries[8])
os.mkfifo(entries[8])
print("fifo", os.path.basename(entries[8]))
if os.geteuid() == 0:
    os.chown(entries[9], 65534, 65534)
    print("owned by nobody", os.path.basename(entries[9]))
else:
    print("owned by nobody: skipped (not root)", os.path.basename(entries[9]))
