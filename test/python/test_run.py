"""Plan.run(): the host run with the device's roundings, the same bits as
prec-compile --run."""

import json
import os
import subprocess

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

import ascendprec
from conftest import SRC

OPTIONS = dict(soc_version="Ascend910", precision_mode="allow_mix_precision")


def read_pb(path):
    tensor = onnx.TensorProto()
    tensor.ParseFromString(path.read_bytes())
    return numpy_helper.to_array(tensor)


def test_cli_and_python_give_identical_plans_outputs_and_figures(
        example_onnx, mixlist, prec_compile, tmp_path):
    cli_out = tmp_path / "cli"
    subprocess.run([prec_compile, str(example_onnx), "--soc_version=Ascend910",
                    "--precision_mode=allow_mix_precision", "--modify_mixlist=" + mixlist,
                    "--run", "--run-seed=7", "--output=" + str(cli_out), "--quiet"],
                   check=True, capture_output=True)
    plan = ascendprec.plan(example_onnx, modify_mixlist=mixlist, **OPTIONS)
    result = plan.run(seed=7)
    py_out = tmp_path / "py"
    plan.write(py_out)

    # The outputs, bit for bit.
    cli_output = read_pb(cli_out / "run" / "output_0.pb")
    assert result.outputs["out"].dtype == cli_output.dtype
    assert result.outputs["out"].tobytes() == cli_output.tobytes()
    assert (py_out / "run" / "output_0.pb").read_bytes() == \
        (cli_out / "run" / "output_0.pb").read_bytes()
    # The plan and its figures.
    cli_report = json.loads((cli_out / "report.json").read_text())
    py_report = json.loads((py_out / "report.json").read_text())
    for cli_node, py_node in zip(cli_report["nodes"], py_report["nodes"], strict=True):
        for key in ("name", "compute_dtype", "rule", "source", "est_us", "rel_err"):
            assert cli_node.get(key) == py_node.get(key), key
    cli_accuracy = json.loads((cli_out / "accuracy.json").read_text())
    py_accuracy = json.loads((py_out / "accuracy.json").read_text())
    assert cli_accuracy["outputs"] == py_accuracy["outputs"]
    assert cli_accuracy["inputs"] == py_accuracy["inputs"]
    cosine = cli_accuracy["outputs"][0]["vs_reference"]["cosine"]
    assert result.output_accuracy("out").vs_reference.cosine == cosine


def test_given_arrays_match_the_same_values_from_a_run_folder(example_onnx, tmp_path):
    image = np.random.default_rng(3).uniform(-1, 1, (1, 3, 16, 16)).astype(np.float32)
    folder = tmp_path / "inputs"
    folder.mkdir()
    (folder / "input_0.pb").write_bytes(
        numpy_helper.from_array(image, "image").SerializeToString())
    from_arrays = ascendprec.plan(example_onnx, **OPTIONS).run({"image": image})
    from_folder = ascendprec.plan(example_onnx, **OPTIONS).run(run_folder=folder)
    assert from_arrays.inputs_from == "given arrays"
    assert from_folder.inputs_from == str(folder)
    assert from_arrays.outputs["out"].tobytes() == from_folder.outputs["out"].tobytes()
    # float64 arrays are converted as a host feeds the model.
    from_doubles = ascendprec.plan(example_onnx, **OPTIONS).run({"image": image.astype(np.float64)})
    assert from_doubles.outputs["out"].tobytes() == from_arrays.outputs["out"].tobytes()


def test_fp16_outputs_are_float16_and_runs_can_repeat(example_onnx):
    plan = ascendprec.plan(example_onnx, soc_version="Ascend910", precision_mode="force_fp16",
                           output_type="FP16")
    first = plan.run(seed=1)
    assert first.outputs["out"].dtype == np.float16
    second = plan.run(seed=2, iterations=2, threads=2)
    assert len(second.run_ms) == 2
    # The first run is a warm-up: the median is of the runs after it.
    assert second.median_run_ms == second.run_ms[1]
    assert first.median_run_ms == first.run_ms[0]
    assert first.outputs["out"].tobytes() != second.outputs["out"].tobytes()
    # The plan's ops carry the later run's errors.
    assert any(op.rel_err is not None for op in plan.ops)
    assert second.text.startswith("Measured on the host CPU")


def test_input_errors_name_the_input(example_onnx):
    plan = ascendprec.plan(example_onnx, **OPTIONS)
    with pytest.raises(ascendprec.RunError, match=r"input 'image' has shape \[1,3,8,8\], "
                                                  r"but input 'image' takes \[1,3,16,16\]"):
        plan.run({"image": np.zeros((1, 3, 8, 8), np.float32)})
    with pytest.raises(ascendprec.RunError, match="input 'image' is not given"):
        plan.run({})
    with pytest.raises(ascendprec.RunError, match="'imag', which the model does not have"):
        plan.run({"imag": np.zeros((1, 3, 16, 16), np.float32)})
    with pytest.raises(ascendprec.RunError, match="holds i32, but input 'image' takes f32"):
        plan.run({"image": np.zeros((1, 3, 16, 16), np.int32)})
    with pytest.raises(ValueError, match="dtype complex64"):
        plan.run({"image": np.zeros((1, 3, 16, 16), np.complex64)})
    with pytest.raises(ascendprec.RunError, match="ranges names input 'x'"):
        plan.run(ranges={"x": (0, 1)})
    # After the errors the plan still runs.
    assert plan.run().outputs["out"].shape == (1, 64, 8)


def test_ranges_shape_random_inputs(example_onnx):
    plan = ascendprec.plan(example_onnx, **OPTIONS)
    result = plan.run(ranges={"image": (0.5, 0.75)})
    assert "image uniform in [0.5, 0.75)" in result.inputs_from


def test_a_plan_runs_one_step_at_a_time(example_onnx):
    holder = {}

    def progress(event, text):
        # Reading the plan while its run is under way (here from the run's
        # own callback; another thread gets the same) is refused.
        if event == "begin" and text == "run on the host" and holder.get("plan"):
            holder["plan"].table()

    plan = ascendprec.plan(example_onnx, progress=progress, **OPTIONS)
    holder["plan"] = plan
    with pytest.raises(RuntimeError, match="busy in another thread"):
        plan.run()
    holder["plan"] = None
    assert plan.run().outputs["out"].shape == (1, 64, 8)


def test_arrays_in_any_layout_and_byte_order(example_onnx):
    plan = ascendprec.plan(example_onnx, **OPTIONS)
    image = np.random.default_rng(5).uniform(-1, 1, (1, 3, 16, 16)).astype(np.float32)
    native = plan.run({"image": image}).outputs["out"]
    for variant in (image.astype(">f4"), np.asfortranarray(image),
                    np.ascontiguousarray(image[:, :, ::-1])[:, :, ::-1]):
        assert plan.run({"image": variant}).outputs["out"].tobytes() == native.tobytes()


def test_scalar_inputs_and_reference_outputs(tmp_path):
    import os
    model = "/usr/share/libonnx-testdata/data/node/test_cumsum_1d/model.onnx"
    if not os.path.exists(model):
        pytest.skip("libonnx-testdata has no test_cumsum_1d")
    plan = ascendprec.plan(model, soc_version="Ascend910B3")
    # A 0-d input (CumSum's axis) stays 0-d; random draws keep it in range.
    result = plan.run({"x": np.arange(5.0), "axis": np.array(0, np.int32)})
    assert result.outputs["y"].tolist() == [0.0, 1.0, 3.0, 6.0, 10.0]
    assert result.reference_outputs["y"].tolist() == [0.0, 1.0, 3.0, 6.0, 10.0]
    assert "axis integers in [0, 1)" in plan.run().inputs_from
    with pytest.raises(ascendprec.RunError, match="takes it as the axis of CumSum"):
        plan.run({"x": np.arange(5.0), "axis": np.array(3, np.int32)})
    assert "RunResult" in repr(result) and len(repr(result)) < 300


def test_an_input_with_an_initializer_of_its_name_may_be_given_or_left_out(tmp_path):
    # Issue 55: ONNX (IR version 4 on) makes such an initializer the
    # input's default; the input stays.
    script = os.path.join(SRC, "test/Target/ONNX/make_default_input_models.py")
    subprocess.run(["/usr/bin/python3", script, str(tmp_path)], check=True)
    plan = ascendprec.plan(tmp_path / "defaults.onnx", soc_version="Ascend910B3")
    x = np.full((2, 3), 0.5, dtype=np.float32)
    defaulted = plan.run({"x": x}).outputs["y"].astype(np.float32)
    assert defaulted.tolist() == [[0, 50, 100], [150, 200, 250]]
    given = plan.run({"x": x, "w": np.full((2, 3), 2.0, dtype=np.float32)}).outputs["y"]
    assert given.astype(np.float32).tolist() == [[1.0] * 3] * 2


def test_a_dataset_may_leave_out_an_input_with_a_default(tmp_path):
    script = os.path.join(SRC, "test/Target/ONNX/make_default_input_models.py")
    subprocess.run(["/usr/bin/python3", script, str(tmp_path)], check=True)
    plan = ascendprec.plan(tmp_path / "defaults.onnx", soc_version="Ascend910B3")
    samples = [{"x": np.full((2, 3), v, dtype=np.float32)} for v in (0.5, -0.25, 1.0)]
    evaluation = ascendprec.evaluate(plan, samples + [dict(samples[0], w=np.ones((2, 3), np.float32))])
    assert evaluation.n == 4
