"""Datasets: every layout, bad samples named, metrics against numpy, the
intervals' coverage, the reference cache, streaming, and the mode
comparison and search judged on samples (docs/reference/datasets.md)."""

import os
import resource
import sys

import numpy as np
import pytest

import ascendprec
from conftest import SRC

sys.path.insert(0, os.path.join(SRC, "examples"))
import datasets as sample_makers  # noqa: E402  (examples/datasets.py)


def rendered_images(count, seed=0):
    """The example model's 1x3x16x16 input from rendered text, not noise."""
    crops, _ = sample_makers.text_crops(count, seed=seed, height=16, width=64)
    return [np.ascontiguousarray(c[:, :, :, 8:24]) for c in crops]


@pytest.fixture(scope="module")
def example_plan(example_onnx):
    return ascendprec.plan(example_onnx, soc_version="Ascend910B3",
                           precision_mode="force_fp16")


@pytest.fixture(scope="module")
def classifier(tmp_path_factory):
    """A direction classifier over 24 x 96 text crops (Conv, Relu, pooling,
    Gemm, Softmax) with fixed weights, and 24 rendered crops with labels."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(3)
    folder = tmp_path_factory.mktemp("classifier")
    inits = [numpy_helper.from_array(rng.normal(0, 0.3, (8, 3, 3, 3)).astype(np.float32), "w1"),
             numpy_helper.from_array(rng.normal(0, 0.3, (16, 8, 3, 3)).astype(np.float32), "w2"),
             numpy_helper.from_array(rng.normal(0, 0.5, (2, 16)).astype(np.float32), "fc"),
             numpy_helper.from_array(np.zeros(2, np.float32), "fc_b")]
    nodes = [helper.make_node("Conv", ["x", "w1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
             helper.make_node("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2],
                              strides=[2, 2]),
             helper.make_node("Conv", ["p1", "w2"], ["c2"], name="conv2", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
             helper.make_node("GlobalAveragePool", ["r2"], ["g"], name="gap"),
             helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
             helper.make_node("Gemm", ["f", "fc", "fc_b"], ["logits"], name="fc", transB=1),
             helper.make_node("Softmax", ["logits"], ["probs"], name="softmax", axis=-1)]
    graph = helper.make_graph(nodes, "cls", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, [1, 3, 24, 96])], [helper.make_tensor_value_info(
            "probs", TensorProto.FLOAT, [1, 2])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    path = folder / "cls.onnx"
    onnx.save(model, str(path))
    crops, labels = sample_makers.text_crops(24, seed=5, height=24, width=96)
    data = folder / "crops"
    data.mkdir()
    for i, crop in enumerate(crops):
        np.savez(data / ("crop_%02d.npz" % i), x=crop)
    np.save(data / "labels.npy", labels)
    return path, data, labels


def write_layouts(root, samples):
    """The same samples in every layout a path dataset may take."""
    from onnx import numpy_helper
    layouts = {}
    pb = root / "pb"
    for i, sample in enumerate(samples):
        folder = pb / ("test_data_set_%d" % i)
        folder.mkdir(parents=True)
        tensor = numpy_helper.from_array(sample, "image")
        (folder / "input_0.pb").write_bytes(tensor.SerializeToString())
    layouts["pb"] = pb
    npz = root / "npz"
    npz.mkdir()
    for i, sample in enumerate(samples):
        np.savez(npz / ("s%02d.npz" % i), image=sample)
    layouts["npz"] = npz
    npy = root / "npy"
    for i, sample in enumerate(samples):
        (npy / ("s%02d" % i)).mkdir(parents=True)
        np.save(npy / ("s%02d" % i) / "image.npy", sample)
    layouts["npy"] = npy
    stacked = np.stack(samples)                      # [n, 1, 3, 16, 16]
    np.save(root / "stacked.npy", stacked)
    layouts["stacked.npy"] = root / "stacked.npy"
    np.savez(root / "stacked.npz", image=np.moveaxis(stacked, 0, 2))   # sample axis 2
    layouts["stacked.npz"] = root / "stacked.npz"
    return layouts


def test_every_layout_gives_the_same_figures(example_plan, tmp_path):
    samples = rendered_images(4)
    layouts = write_layouts(tmp_path, samples)
    results = {}
    for name, path in layouts.items():
        axis = 2 if name == "stacked.npz" else None
        results[name] = ascendprec.evaluate(example_plan, path, data_axis=axis,
                                            reference_cache=False, per_op=False)
    results["iterable"] = ascendprec.evaluate(example_plan, [{"image": s} for s in samples],
                                              reference_cache=False, per_op=False)

    class Reader:  # onnxruntime's CalibrationDataReader
        def __init__(self):
            self.items = iter([{"image": s} for s in samples])

        def get_next(self):
            return next(self.items, None)
    results["reader"] = ascendprec.evaluate(example_plan, Reader(), reference_cache=False,
                                            per_op=False)
    expected = results["npz"].values("out", "cosine")
    assert len(expected) == 4 and np.all(expected < 1)
    for name, evaluation in results.items():
        assert evaluation.n == 4, name
        np.testing.assert_array_equal(evaluation.values("out", "cosine"), expected, err_msg=name)
        np.testing.assert_array_equal(evaluation.values("out", "max_abs_err"),
                                      results["npz"].values("out", "max_abs_err"))


def test_a_bad_sample_is_named(example_plan, tmp_path):
    samples = rendered_images(3)
    for i, sample in enumerate(samples):
        np.savez(tmp_path / ("s%d.npz" % i), image=sample)
    np.savez(tmp_path / "s1.npz", image=samples[1][:, :, :8])
    with pytest.raises(ascendprec.RunError) as error:
        ascendprec.evaluate(example_plan, tmp_path, reference_cache=False)
    assert error.value.file.endswith("s1.npz")
    assert "[1, 3, 8, 16]" in error.value.message and "[1, 3, 16, 16]" in error.value.message
    np.savez(tmp_path / "s1.npz", img=samples[1])
    with pytest.raises(ascendprec.RunError, match="missing 'image'; has 'img'"):
        ascendprec.evaluate(example_plan, tmp_path, reference_cache=False)
    with pytest.raises(ascendprec.RunError, match="no such file"):
        ascendprec.evaluate(example_plan, tmp_path / "nothing", reference_cache=False)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ascendprec.RunError, match="no samples found"):
        ascendprec.evaluate(example_plan, tmp_path / "empty", reference_cache=False)
    with pytest.raises(TypeError, match="wrap it in a list"):
        ascendprec.evaluate(example_plan, {"image": samples[0]})
    (tmp_path / "pictures").mkdir()
    (tmp_path / "pictures" / "cat.png").write_bytes(b"\x89PNG")
    with pytest.raises(ascendprec.RunError, match="image or audio files .*numpy.savez"):
        ascendprec.evaluate(example_plan, tmp_path / "pictures", reference_cache=False)
    with pytest.raises(ascendprec.RunError, match="applies to one .npy or .npz file"):
        ascendprec.evaluate(example_plan, tmp_path, data_axis=1, reference_cache=False)


def numpy_figures(actual, reference):
    a = actual.astype(np.float64).ravel()
    r = reference.astype(np.float64).ravel()
    d = np.abs(a - r)
    return {"cosine": a @ r / np.linalg.norm(a) / np.linalg.norm(r),
            "max_abs_err": d.max(),
            "max_rel_err": (d / np.maximum(np.abs(r), 1e-3 * np.abs(r).max())).max(),
            "rmse": np.sqrt(np.mean(d ** 2)),
            "rel_rmse": np.linalg.norm(a - r) / np.linalg.norm(r),
            "euclid_dist": np.linalg.norm(a - r),
            "within_1e-3": np.mean(d <= 1e-3 * np.abs(r)),
            "within_5e-3": np.mean(d <= 5e-3 * np.abs(r))}


def test_per_sample_metrics_equal_numpys(example_plan):
    samples = rendered_images(3, seed=9)
    evaluation = ascendprec.evaluate(example_plan, [{"image": s} for s in samples],
                                     reference_cache=False)
    for i, sample in enumerate(samples):
        run = example_plan.run({"image": sample})
        expected = numpy_figures(run.outputs["out"], run.reference_outputs["out"])
        for metric, value in expected.items():
            assert evaluation.values("out", metric)[i] == pytest.approx(value, rel=1e-12,
                                                                        abs=1e-300), metric


def test_class_metrics_and_labels():
    from ascendprec._metrics import sample_metrics
    reference = np.array([[0.1, 0.6, 0.3]])
    plan = np.array([[0.1, 0.3, 0.6]])
    figures = sample_metrics({"p": plan}, {"p": reference}, label=np.array(2))["p"]
    assert figures["top1_agreement"] == 0.0
    assert figures["top1_accuracy"] == 1.0 and figures["reference_top1_accuracy"] == 0.0
    kl = 0.6 * np.log(0.6 / 0.3) + 0.3 * np.log(0.3 / 0.6)
    assert figures["kl"] == pytest.approx(kl)
    overflow = sample_metrics({"p": np.array([[np.inf, 0, 0]])}, {"p": reference})["p"]
    assert overflow["cosine"] == -1 and overflow["rel_rmse"] == np.inf
    assert overflow["top1_agreement"] == 0


def test_interval_coverage_on_a_known_answer():
    """95% intervals of the mean (bootstrap, Wilson) and of p5 (order
    statistics) cover the true value in about 95% of 300 draws."""
    from ascendprec._stats import aggregate
    rng = np.random.default_rng(11)
    covered = {"mean": 0, "agreement": 0, "p5": 0}
    draws = 300
    true_p5 = 1 - 0.95 ** 0.5      # X = 1 - sqrt(U): P(X <= x) = 1 - (1 - x)^2
    for _ in range(draws):
        values = rng.exponential(2.0, 80)          # an error metric, mean 2
        s = aggregate(values, "rel_rmse")
        covered["mean"] += s["mean_ci"][0] <= 2.0 <= s["mean_ci"][1]
        agree = (rng.random(120) < 0.9).astype(float)
        s = aggregate(agree, "top1_agreement")
        covered["agreement"] += s["mean_ci"][0] <= 0.9 <= s["mean_ci"][1]
        cosines = 1 - np.sqrt(rng.random(400))     # higher is better; p5 is its 5th pct
        s = aggregate(cosines, "cosine")
        low, high = s["p5_ci"]
        covered["p5"] += low <= true_p5 <= high
    for name, count in covered.items():
        assert 0.90 <= count / draws <= 0.99, (name, count / draws)


def test_paired_tests_known_answers():
    from ascendprec._stats import mcnemar, paired_bootstrap
    assert mcnemar([1, 1, 1, 0, 1], [0, 0, 0, 0, 1]) == (3, 0, pytest.approx(0.25))
    assert mcnemar([1] * 5, [1] * 5)[2] == 1.0
    result = paired_bootstrap(np.full(50, 1.0) + np.arange(50) * 1e-3, np.full(50, 0.5))
    assert result["p"] <= 1e-3 and result["ci"][0] > 0.5
    # A plan that overflows (Inf error) on every sample: no mean, a sign test.
    overflow = paired_bootstrap(np.full(6, np.inf), np.full(6, 1e-3))
    assert overflow["sign_test"] == [6, 0] and overflow["p"] == pytest.approx(2 / 64)


def test_reference_runs_once_per_sample(example_onnx, tmp_path):
    samples = [{"image": s} for s in rendered_images(3, seed=2)]
    cache = tmp_path / "refs"
    first = ascendprec.evaluate(example_onnx, samples, soc_version="Ascend910B3",
                                precision_mode="force_fp16", reference_cache=cache)
    assert first.reference_runs == 3
    # Another plan of the same model under the same options: all cached.
    again = ascendprec.evaluate(example_onnx, samples, soc_version="Ascend910B3",
                                precision_mode="force_fp16", reference_cache=cache,
                                per_op=False)
    assert again.reference_runs == 0
    np.testing.assert_array_equal(first.values("out", "cosine"), again.values("out", "cosine"))
    entries = [f for _, _, files in os.walk(cache) for f in files]
    assert len(entries) == 3 and all(f.endswith(".ref") for f in entries)
    # A changed sample is a new entry, never a stale hit.
    changed = [dict(samples[0], image=samples[0]["image"] + np.float32(0.25))]
    third = ascendprec.evaluate(example_onnx, changed, soc_version="Ascend910B3",
                                precision_mode="force_fp16", reference_cache=cache)
    assert third.reference_runs == 1


def test_error_jumps_are_counted_over_samples(example_plan):
    evaluation = ascendprec.evaluate(example_plan, [{"image": s} for s in rendered_images(4)],
                                     reference_cache=False)
    assert evaluation.jump_samples == 4
    assert evaluation.error_jump_counts
    assert all(1 <= count <= 4 for count in evaluation.error_jump_counts.values())
    assert "the error first jumps at:" in evaluation.text
    assert " of 4" in evaluation.text


def test_compare_modes_on_a_dataset(classifier):
    model, data, _ = classifier
    comparison = ascendprec.compare_modes(model, soc_version="Ascend910B3", data=data,
                                          limit=12, reference_cache=False)
    assert isinstance(comparison, ascendprec.DatasetComparison)
    assert comparison.mode("force_fp32").n == 12
    assert comparison.mode("force_fp32").figure("probs", "top1_agreement") == 1.0
    fp16 = comparison.mode("force_fp16")
    assert fp16.figure("probs", "top1_accuracy") is not None   # labels.npy was found
    assert comparison.pairs and comparison.pairs[0]["test"] in ("mcnemar", "paired_bootstrap")
    assert comparison.pm13["pairs"]
    assert "PM-13's accuracy order" in comparison.text
    assert comparison.reference_runs == 12                       # once per sample


def test_search_on_a_dataset_returns_a_plan_that_meets_it(classifier):
    model, data, _ = classifier
    target = "cosine.min>=0.99999"
    found = ascendprec.search_precision(model, target, soc_version="Ascend910B3", data=data,
                                        reference_cache=False)
    assert isinstance(found, ascendprec.DatasetSearchResult)
    assert found.evaluation.n == 24
    assert found.evaluation.stat("probs", "cosine")["worst"] >= 0.99999
    assert found.sample_runs <= found.exhaustive_sample_runs
    assert "options.json" in found.files
    assert found.precision_mode in found.files["options.json"]
    # Checked again from scratch: the plan meets the target on every sample.
    options = {}
    if found.keep_dtype:
        keep = data.parent / "keep.cfg"
        keep.write_text(found.files["keep_dtype.cfg"])
        options["keep_dtype"] = str(keep)
    again = ascendprec.evaluate(model, data, soc_version="Ascend910B3",
                                precision_mode=found.precision_mode, reference_cache=False,
                                per_op=False, **options)
    assert np.all(again.values("probs", "cosine") >= 0.99999)


def test_targets_are_checked():
    from ascendprec._targets import parse_target
    conditions = parse_target("top1_agreement>=0.995, cosine.p1>=0.9995, "
                              "logits:rel_rmse.mean<=1e-3")
    assert [(c.output, c.metric, c.aggregate) for c in conditions] == [
        ("", "top1_agreement", "mean"), ("", "cosine", "p1"), ("logits", "rel_rmse", "mean")]
    assert parse_target("cosine>=0.999")[0].aggregate == "worst"
    with pytest.raises(ascendprec.SearchError, match="unknown metric 'cosin'; did you mean "
                                                     "'cosine'"):
        parse_target("cosin>=0.9")
    with pytest.raises(ascendprec.SearchError, match="the best sample"):
        parse_target("cosine.max>=0.9")
    with pytest.raises(ascendprec.SearchError, match="write cosine>="):
        parse_target("cosine<=0.9")


def test_streaming_keeps_memory_flat(example_plan, tmp_path):
    """10,000 samples from one memory-mapped file: the peak after them is
    the peak after 1,000."""
    base = np.concatenate(rendered_images(8, seed=4))          # [8, 3, 16, 16]
    samples = np.empty((10_000, 1, 3, 16, 16), np.float32)
    for i in range(samples.shape[0]):
        samples[i, 0] = base[i % 8] * (0.5 + (i % 97) / 97)
    path = tmp_path / "many.npy"
    np.save(path, samples)
    del samples
    ascendprec.evaluate(example_plan, path, limit=1_000, reference_cache=False, per_op=False)
    peak_1k = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    evaluation = ascendprec.evaluate(example_plan, path, reference_cache=False, per_op=False)
    peak_10k = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert evaluation.n == 10_000
    assert peak_10k - peak_1k < 16 * 1024, (peak_1k, peak_10k)   # KiB


def test_a_model_with_dynamic_dims_is_planned_per_sample_shape(tmp_path):
    """As Paddle exports its classifiers: H and W dynamic. Each sample's
    shapes plan the model (as --input_shape would), each shape once."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(4)
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
         helper.make_node("Relu", ["c"], ["r"], name="relu"),
         helper.make_node("GlobalAveragePool", ["r"], ["g"], name="gap"),
         helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
         helper.make_node("Gemm", ["f", "fc"], ["logits"], name="fc", transB=1)],
        "dynamic", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, "h", "w"])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 4])],
        [numpy_helper.from_array(rng.normal(0, 0.3, (8, 3, 3, 3)).astype(np.float32), "w"),
         numpy_helper.from_array(rng.normal(0, 0.5, (4, 8)).astype(np.float32), "fc")])
    path = tmp_path / "dynamic.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    wide, _ = sample_makers.text_crops(2, seed=6, height=24, width=96)
    narrow, _ = sample_makers.text_crops(2, seed=7, height=16, width=48)
    samples = [{"x": wide[0]}, {"x": narrow[0]}, {"x": wide[1]}, {"x": narrow[1]}]
    evaluation = ascendprec.evaluate(path, samples, soc_version="Ascend910B3",
                                     reference_cache=False)
    assert evaluation.n == 4
    assert np.all(evaluation.values("logits", "cosine") > 0.99)
    assert evaluation.est_device_us > 0       # estimated at the first sample's shapes


def test_a_target_no_sample_count_can_show_is_refused(classifier):
    model, data, _ = classifier
    with pytest.raises(ascendprec.SearchError, match="it needs at least 73 samples") as error:
        ascendprec.search_precision(model, "top1_agreement>=0.95", soc_version="Ascend910B3",
                                    data=data, reference_cache=False)
    assert "nothing was run" in error.value.message


def test_the_per_sample_file_has_every_figure(example_plan, tmp_path):
    import json
    evaluation = ascendprec.evaluate(example_plan, [{"image": s} for s in rendered_images(3)],
                                     reference_cache=False, per_op=False)
    evaluation.write_samples(tmp_path / "samples.jsonl")
    rows = [json.loads(line) for line in open(tmp_path / "samples.jsonl")]
    assert [row["id"] for row in rows] == ["0", "1", "2"]
    assert rows[1]["metrics"]["out"]["cosine"] == evaluation.values("out", "cosine")[1]
    summary = json.loads(evaluation.to_json())
    assert summary["samples"] == 3
    assert set(summary["outputs"]["out"]["cosine"]) >= {"mean", "mean_ci", "worst", "p1",
                                                        "p1_ci", "p5", "worst_samples"}


def test_the_search_tries_keep_dtype_lists_and_prunes_by_estimate(tmp_path):
    """A CNN at 128x128 where force_fp16 is the fastest mode and misses the
    target: lists of its worst ops are tried (fewer lines first), the ones
    estimated slower than a passing mode are never run, and failing
    candidates stop at the first look."""
    import subprocess
    subprocess.run(["/usr/bin/python3", os.path.join(SRC, "test/Execution/inputs/"
                                                     "make_search_models.py"), str(tmp_path)],
                   check=True, capture_output=True)
    crops, _ = sample_makers.text_crops(12, seed=2, height=128, width=512)
    samples = [{"x": np.ascontiguousarray(c[:, :, :, :128])} for c in crops]
    found = ascendprec.search_precision(tmp_path / "cnn.onnx", "rel_rmse.max<=3e-4",
                                        soc_version="Ascend910B3", data=samples,
                                        reference_cache=False)
    verdicts = {step["plan"]: step for step in found.steps}
    lists = [s for s in found.steps if "keep_dtype" in s["plan"]]
    assert lists, found.text
    assert all(s["verdict"] == "pruned" for s in lists if s["est_device_us"] > found.est_device_us * 1.01)
    assert verdicts["force_fp16"]["verdict"] == "fails" and verdicts["force_fp16"]["samples"] == 8
    assert found.evaluation.n == 12
    assert np.all(found.evaluation.values("y" if "y" in found.evaluation.metrics else
                                          next(iter(found.evaluation.metrics)), "rel_rmse")
                  <= 3e-4)


def test_the_mistakes_users_make_with_labels_and_class_axes(classifier, example_plan, tmp_path):
    """Each a clear error naming what is wrong, never a traceback from
    numpy nor a figure silently off."""
    model, data, labels = classifier
    plan = ascendprec.plan(model, soc_version="Ascend910B3")
    few = dict(reference_cache=False, per_op=False, limit=4)
    cases = [
        (dict(labels=np.eye(2, dtype=np.float32)[labels]), "class indices \\(integers\\)"),
        (dict(labels=labels[:10]), "the labels hold 10 rows for 24 samples"),
        (dict(labels=labels * 5), "label 5 is not a class of an output with 2 classes"),
        (dict(class_axes={"probs": 0}), "axis 0 holds fewer than 2 classes"),
        (dict(class_axes={"logits": 1}), "class_axes names output 'logits'"),
    ]
    for settings, message in cases:
        with pytest.raises(ascendprec.RunError, match=message):
            ascendprec.evaluate(plan, data, **dict(few, **settings))
    (tmp_path / "labels.txt").write_text("0\n1\n")
    with pytest.raises(ascendprec.RunError, match="labels are a .npy file"):
        ascendprec.evaluate(plan, data, labels=tmp_path / "labels.txt", **few)
    with pytest.raises(ascendprec.RunError, match="no output holds class scores"):
        ascendprec.evaluate(example_plan, [{"image": s} for s in rendered_images(2)],
                            labels=[0, 1], reference_cache=False, per_op=False)
    samples = [{"x": np.load(data / ("crop_%02d.npz" % i))["x"]} for i in range(4)]
    with pytest.raises(TypeError, match="once per mode"):
        ascendprec.compare_modes(model, soc_version="Ascend910B3", data=iter(samples))
    with pytest.raises(ValueError, match="give the SoC as soc_version"):
        ascendprec.search_precision(model, "Ascend910B3", data=samples)


def test_written_files_never_replace_a_users(example_plan, tmp_path):
    evaluation = ascendprec.evaluate(example_plan, [{"image": s} for s in rendered_images(2)],
                                     reference_cache=False, per_op=False)
    mine = tmp_path / "mine.jsonl"
    mine.write_text("my notes\n")
    with pytest.raises(ascendprec.OutputError, match="overwrites nothing"):
        evaluation.write_samples(mine)
    assert mine.read_text() == "my notes\n"
    found = ascendprec.search_precision(example_plan, "cosine.min>=0.9",
                                        data=[{"image": s} for s in rendered_images(2)],
                                        reference_cache=False)
    (tmp_path / "empty").mkdir()
    assert "options.json" in found.write(tmp_path / "empty")
    with pytest.raises(ascendprec.OutputError, match="not a new or empty folder"):
        found.write(tmp_path / "empty")
