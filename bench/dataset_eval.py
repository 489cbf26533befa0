#!/usr/bin/env python3
"""Plans judged on datasets (issue 54): speed, the search's sample-runs, and
why one sample is not enough. Prints figures and ratios; no pass/fail.

  modes      PP-OCR's direction classifier (public, npm) on 300 rendered text
             crops: all 8 modes, cold and warm reference cache; the overhead
             beyond the runs themselves
  workers    samples/s on 1 and 2 local threads and 1 and 2 LocalCluster
             workers; per-task overhead on the cluster; the arithmetic for a
             10-machine cluster
  search     the classifier's dataset search: sample-runs against evaluating
             every candidate on every sample
  audio      a two-model audio pipeline (log-mel front end, CNN) on 30 clips
             (espeak-ng words and synthetic sounds): a one-clip search's
             answer judged on all 30, against the dataset search's

Usage: dataset_eval.py [--parts modes,workers,search,audio] [--work DIR]
Needs: the build (PYTHONPATH=build/python), npm (the public model), espeak-ng.
"""

import argparse
import math
import os
import shutil
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "build", "python"))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))
sys.path.insert(0, HERE)

import ascendprec  # noqa: E402
import datasets as sample_makers  # noqa: E402
from real_models_check import public_model  # noqa: E402

SOC = "Ascend910B3"


def crops_folder(work, count):
    folder = os.path.join(work, "crops%d" % count)
    if not os.path.isdir(folder):
        os.makedirs(folder)
        images, labels = sample_makers.text_crops(count, seed=0)
        for i, image in enumerate(images):
            np.savez(os.path.join(folder, "crop_%04d.npz" % i), x=image)
        np.save(os.path.join(folder, "labels.npy"), labels)
    return folder


def part_modes(cls, crops, work):
    print("== modes: PP-OCR cls, 8 modes x 300 samples ==")
    refs = os.path.join(work, "refs-modes")
    shutil.rmtree(refs, ignore_errors=True)
    for label in ("cold reference cache", "warm reference cache"):
        for jobs in (1, 2):
            if label.startswith("cold") and jobs == 2:
                continue
            started = time.perf_counter()
            comparison = ascendprec.compare_modes(cls, soc_version=SOC, data=crops, jobs=jobs,
                                                  reference_cache=refs, progress=False,
                                                  input_shape="x:1,3,48,192")
            wall = time.perf_counter() - started
            runs = sum(e.run_seconds + e.reference_seconds
                       for e in comparison.evaluations.values())
            print("  %-22s jobs=%d: %6.1f s wall, %5d sample-runs, %3d reference runs; "
                  "inside runs %.1f s of thread time" % (label, jobs, wall, comparison.sample_runs,
                                                         comparison.reference_runs, runs))
    print(comparison.text)
    # Overhead beyond the runs: one plan, one thread, warm cache.
    plan = ascendprec.plan(cls, soc_version=SOC, precision_mode="force_fp16",
                           input_shape="x:1,3,48,192")
    # The first pass runs the references of this plan's options (a key of
    # their own) and the JIT; the next ones are what a dataset costs.
    ascendprec.evaluate(plan, crops, reference_cache=refs, per_op=False, progress=False)
    for _ in range(3):
        started = time.perf_counter()
        evaluation = ascendprec.evaluate(plan, crops, reference_cache=refs, per_op=False,
                                         progress=False)
        wall = time.perf_counter() - started
        print("  overhead: evaluate of 300 samples %.3f s wall, %.3f s inside the plan's "
              "runs: %.1f%% beyond the runs (reading samples, the cached reference, metrics)"
              % (wall, evaluation.run_seconds, 100 * (wall / evaluation.run_seconds - 1)))


def part_workers(cls, crops, work):
    print("== workers: samples/s, force_fp16, warm caches, 1,200 samples ==")
    crops = crops_folder(work, 1200)
    import distributed
    refs = os.path.join(work, "refs-workers")
    options = dict(soc_version=SOC, precision_mode="force_fp16", input_shape="x:1,3,48,192",
                   per_op=False, progress=False, reference_cache=refs)
    ascendprec.evaluate(cls, crops, **options)       # fill the reference cache
    rates = {}
    for jobs in (1, 2):
        started = time.perf_counter()
        evaluation = ascendprec.evaluate(cls, crops, jobs=jobs, **options)
        rates["threads=%d" % jobs] = evaluation.n / (time.perf_counter() - started)
    for workers in (1, 2):
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                           processes=True, host="127.0.0.1",
                                           dashboard_address="127.0.0.1:0")
        client = distributed.Client(cluster)
        ascendprec.evaluate(cls, crops, client=client, limit=2 * workers, **options)  # plan
        for chunk in (50, 1):
            started = time.perf_counter()
            evaluation = ascendprec.evaluate(cls, crops, client=client, chunk=chunk, **options)
            rates["cluster %d workers, chunk %d" % (workers, chunk)] = \
                evaluation.n / (time.perf_counter() - started)
        client.close()
        cluster.close()
    for name, rate in rates.items():
        print("  %-32s %7.1f samples/s  (%.2fx one thread)" % (name, rate,
                                                            rate / rates["threads=1"]))
    one = rates["cluster 1 workers, chunk 50"]
    per_task = max(0.0, 1 / rates["cluster 1 workers, chunk 1"] - 1 / one)
    print("  per-task overhead on the cluster: %.1f ms (chunk of 1 against chunk of 50, "
          "1 worker)" % (1000 * per_task))
    two = rates["cluster 2 workers, chunk 50"]
    print("  10 machines x 2 cores: about %.0f samples/s if each machine scales as 2 local "
          "workers do here (%.0f/s); 8 modes x 100,000 samples = %.0f s"
          % (10 * two, two, 8 * 100_000 / (10 * two)))


def part_search(cls, crops, work):
    print("== search: PP-OCR cls on 300 crops ==")
    refs = os.path.join(work, "refs-modes")
    for target in ("cosine.min>=0.99999999", "rel_rmse.p5<=1e-6", "top1_agreement>=0.99"):
        started = time.perf_counter()
        try:
            found = ascendprec.search_precision(cls, target, soc_version=SOC, data=crops,
                                                reference_cache=refs, progress=False,
                                                input_shape="x:1,3,48,192")
            answer = found.message
            runs, exhaustive = found.sample_runs, found.exhaustive_sample_runs
        except ascendprec.SearchError as error:
            answer, runs, exhaustive = "not met: " + error.message[:90], 0, 0
        print("  %-26s %s\n  %-26s sample-runs %d of %d exhaustive (%.0f%%), %.1f s"
              % (target, answer, "", runs, exhaustive, 100 * runs / max(exhaustive, 1),
                 time.perf_counter() - started))


def part_audio(work):
    print("== audio: log-mel front end + CNN, 30 clips ==")
    folder = os.path.join(work, "audio")
    os.makedirs(folder, exist_ok=True)
    sample_makers.write_audio_models(folder)
    clips, _ = sample_makers.spoken_clips(30, seed=3)
    samples = [{"audio": clip[None]} for clip in clips]

    def glue(run, sample):
        return run("classifier", {"log_mel": run("frontend", sample)["log_mel"]})
    pipeline = ascendprec.Pipeline({"frontend": os.path.join(folder, "frontend.onnx"),
                                    "classifier": os.path.join(folder, "classifier.onnx")},
                                   glue, soc_version=SOC)
    for target in ("cosine.min>=0.9999", "cosine.min>=0.99999", "cosine.min>=0.999999"):
        # One clip at a time: the answer a single input gives, judged on all 30.
        failing = []
        for clip in (0, 1, 2):
            one = pipeline.search(target, samples[clip:clip + 1], reference_cache=False,
                                  progress=False)
            on_all = pipeline.evaluate(samples, one.precision_mode, reference_cache=False,
                                       progress=False)
            cosines = on_all.values("probs", "cosine")
            failing.append(int(np.sum(cosines < float(target.split(">=")[1]))))
            print("  %s, clip %d alone: %s\n    on all 30 clips: worst cosine %.7f, %d of 30 "
                  "fail" % (target, clip, one.message.split(", est.")[0], cosines.min(),
                            failing[-1]))
        found = pipeline.search(target, samples, reference_cache=False, progress=False)
        print("  %s on the 30 clips: %s\n    sample-runs %d of %d exhaustive"
              % (target, found.message, found.sample_runs, found.exhaustive_sample_runs))
    for modes in ({"frontend": "force_fp16", "classifier": "force_fp16"},
                  {"frontend": "allow_mix_precision_bf16", "classifier": "force_fp16"},
                  {"frontend": "force_fp32", "classifier": "force_fp16"}):
        evaluation = pipeline.evaluate(samples, modes, reference_cache=False, progress=False)
        c = evaluation.stat("probs", "cosine")
        a = evaluation.stat("probs", "top1_agreement")
        print("    %-58s cosine mean %.6f worst %.6f; top-1 agreement %.3f [%.3f, %.3f]"
              % (", ".join("%s %s" % kv for kv in modes.items()), c["mean"], c["worst"],
                 a["mean"], a["mean_ci"][0], a["mean_ci"][1]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", default="modes,workers,search,audio")
    parser.add_argument("--work", default=None)
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="ascendprec-dataset-bench-")
    os.makedirs(work, exist_ok=True)
    ascendprec.set_kernel_cache(os.path.join(work, "kernels"))
    parts = args.parts.split(",")
    cls = crops = None
    if {"modes", "workers", "search"} & set(parts):
        cls = public_model("ppocr_cls", os.path.join(HERE, "public"))
        crops = crops_folder(work, 300)
    for part in parts:
        started = time.perf_counter()
        if part == "modes":
            part_modes(cls, crops, work)
        elif part == "workers":
            part_workers(cls, crops, work)
        elif part == "search":
            part_search(cls, crops, work)
        elif part == "audio":
            part_audio(work)
        print("  (%s: %.0f s)\n" % (part, time.perf_counter() - started))


if __name__ == "__main__":
    main()
