"""Writes N samples of the example model's input (1x3x16x16, cut from
rendered text crops, examples/datasets.py) as one .npz each into FOLDER;
with --bad=I sample I gets a wrong shape."""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "examples"))
import datasets  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("folder")
parser.add_argument("count", type=int)
parser.add_argument("--bad", type=int, default=-1)
args = parser.parse_args()
os.makedirs(args.folder, exist_ok=True)
crops, _ = datasets.text_crops(args.count, seed=1, height=16, width=64)
for i, crop in enumerate(crops):
    image = np.ascontiguousarray(crop[:, :, :, 8:24])
    if i == args.bad:
        image = image[:, :, :8]
    np.savez(os.path.join(args.folder, "sample_%02d.npz" % i), image=image)
