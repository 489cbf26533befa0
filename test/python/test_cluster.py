"""A dataset evaluated on a Dask cluster (Debian's python3-distributed): a
LocalCluster of two worker processes on 127.0.0.1 gives the JSON a local
run gives, also when a worker is killed mid-run."""

import json
import os
import signal
import sys
import threading

import numpy as np
import pytest

import ascendprec
from conftest import SRC

distributed = pytest.importorskip("distributed")
sys.path.insert(0, os.path.join(SRC, "examples"))
import datasets as sample_makers  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address="127.0.0.1:0")
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    folder = tmp_path_factory.mktemp("crops")
    crops, _ = sample_makers.text_crops(16, seed=8, height=16, width=64)
    for i, crop in enumerate(crops):
        np.savez(folder / ("c%02d.npz" % i), image=np.ascontiguousarray(crop[:, :, :, 8:24]))
    return folder


def comparable(evaluation):
    data = json.loads(evaluation.to_json())
    data.pop("reference_runs")        # who ran the reference first differs
    return data


def test_a_cluster_gives_the_local_json(cluster, example_onnx, dataset, tmp_path):
    options = dict(soc_version="Ascend910B3", precision_mode="allow_mix_precision",
                   per_op=False, chunk=3)
    local = ascendprec.evaluate(example_onnx, dataset, reference_cache=tmp_path / "local",
                                **options)
    events = []
    remote = ascendprec.evaluate(example_onnx, dataset, client=cluster,
                                 reference_cache=tmp_path / "remote",
                                 progress=lambda event, text: events.append(event), **options)
    assert comparable(remote) == comparable(local)
    assert remote.n == 16
    assert events.count("step") == 6          # progress came back from the cluster, per chunk


def test_a_worker_killed_mid_run_loses_nothing(cluster, example_onnx, dataset, tmp_path):
    options = dict(soc_version="Ascend910B3", precision_mode="force_fp16", per_op=False,
                   chunk=2, reference_cache=False)
    local = ascendprec.evaluate(example_onnx, dataset, **options)
    killed = threading.Event()
    pids = cluster.run(os.getpid)

    def kill_one(event, text):
        # kill -9 of a worker process after the first chunk came back.
        if event == "step" and not killed.is_set():
            killed.set()
            os.kill(sorted(pids.values())[0], signal.SIGKILL)

    remote = ascendprec.evaluate(example_onnx, dataset, client=cluster, progress=kill_one,
                                 **options)
    assert killed.is_set()
    assert comparable(remote) == comparable(local)
    assert remote.n == 16                       # every sample once, none twice
