"""Two models with Python glue, judged end to end: a log-mel front end
(Clip(1e-10), Log, an axis-less ReduceMax) feeding a CNN, on spoken words
from espeak-ng (examples/datasets.py)."""

import os
import shutil
import sys

import numpy as np
import pytest

import ascendprec
from conftest import SRC

sys.path.insert(0, os.path.join(SRC, "examples"))
import datasets as sample_makers  # noqa: E402

pytestmark = pytest.mark.skipif(not shutil.which("espeak-ng"), reason="needs espeak-ng")


@pytest.fixture(scope="module")
def audio(tmp_path_factory):
    folder = tmp_path_factory.mktemp("audio")
    sample_makers.write_audio_models(str(folder))
    clips, _ = sample_makers.spoken_clips(8, seed=1)
    return folder, [{"audio": clip[None]} for clip in clips]


def glue(run, sample):
    return run("classifier", {"log_mel": run("frontend", sample)["log_mel"]})


def test_a_pipeline_is_judged_end_to_end(audio):
    folder, clips = audio
    pipeline = ascendprec.Pipeline({"frontend": folder / "frontend.onnx",
                                    "classifier": folder / "classifier.onnx"}, glue,
                                   soc_version="Ascend910B3")
    fp32 = pipeline.evaluate(clips, {"frontend": "force_fp32", "classifier": "force_fp32"},
                             reference_cache=False)
    assert fp32.n == 8 and np.all(fp32.values("probs", "cosine") > 0.999999)
    fp16 = pipeline.evaluate(clips, {"frontend": "force_fp16", "classifier": "force_fp16"},
                             reference_cache=False)
    assert np.all(fp16.values("probs", "cosine") < fp32.values("probs", "cosine"))
    assert "top1_agreement" in fp16.metrics["probs"]


def test_the_pipeline_search_meets_its_target_on_every_sample(audio):
    folder, clips = audio
    pipeline = ascendprec.Pipeline({"frontend": folder / "frontend.onnx",
                                    "classifier": folder / "classifier.onnx"}, glue,
                                   soc_version="Ascend910B3")
    found = pipeline.search("cosine.min>=0.9999", clips, reference_cache=False)
    assert set(found.precision_mode) == {"frontend", "classifier"}
    check = pipeline.evaluate(clips, found.precision_mode, reference_cache=False)
    assert np.all(check.values("probs", "cosine") >= 0.9999)
    assert found.sample_runs < found.exhaustive_sample_runs
    with pytest.raises(TypeError, match="several times"):
        pipeline.search("cosine.min>=0.9999", iter(clips))
