"""ascendprec.plan(): the plan, its ops and files, as prec-compile makes them."""

import json
import os

import numpy as np
import pytest

import ascendprec


def test_plan_reports_every_op_with_rule_and_estimate(example_onnx, mixlist):
    plan = ascendprec.plan(example_onnx, soc_version="Ascend910",
                           precision_mode="allow_mix_precision", modify_mixlist=mixlist)
    assert plan.soc_version == "Ascend910"
    assert plan.precision_mode == "allow_mix_precision"
    conv = plan.op("stem.conv")
    assert conv.op_type == "Conv2D" and conv.engine == "AICore-cube"
    # ML-2: a white-list op computes in fp16 in a mixed-precision mode.
    assert conv.list == "white" and conv.rule == "ML-2" and conv.compute_dtype == "float16"
    assert conv.absorbed == ["stem.bn"] and conv.fused_by == ["ConvBatchnormFusionPass"]
    assert conv.ub_group == "stem.conv" and conv.est_us > 0
    assert all(op.rule for op in plan.ops if not op.inserted_cast)
    assert plan.est_device_us == pytest.approx(plan.summary["est_device_us"])
    assert plan.est_device_us > 0
    assert str(plan).startswith("SoC Ascend910, precision mode allow_mix_precision")
    report = json.loads(plan.to_json())
    # report.json lists what plan.ops lists, inserted Casts included (marked).
    assert [(node["name"], node["inserted_cast"]) for node in report["nodes"]] == \
        [(op.name, op.inserted_cast) for op in plan.ops]


def test_plan_takes_onnx_bytes_and_mlir_files(example_onnx, example_mlir):
    from_bytes = ascendprec.plan(example_onnx.read_bytes(), soc_version="Ascend910")
    from_file = ascendprec.plan(example_onnx, soc_version="Ascend910")
    assert [(op.name, op.compute_dtype) for op in from_bytes.ops] == \
        [(op.name, op.compute_dtype) for op in from_file.ops]
    mlir = ascendprec.plan(example_mlir, soc_version="Ascend910B3", precision_mode="force_fp32")
    assert all(op.compute_dtype in ("float32", "int64", "int32", "") for op in mlir.ops
               if op.engine.startswith("AICore"))


def test_options_by_cann_names_and_input_shape_dict(example_onnx):
    plan = ascendprec.plan(example_onnx, soc_version="Ascend910B3",
                           precision_mode_v2="mixed_float16",
                           input_shape={"image": [1, 3, 16, 16]})
    assert plan.summary["options"]["precision_mode_v2"] == "mixed_float16"
    assert plan.summary["options"]["input_shape"] == "image:1,3,16,16"


def test_explain_keeps_remarks(example_onnx):
    plan = ascendprec.plan(example_onnx, soc_version="Ascend910", explain=True,
                           explain_only=["stem.conv"])
    remarks = [d for d in plan.diagnostics if d["severity"] == "remark"]
    assert remarks and all(d["node"] in ("stem.conv", "") for d in remarks)
    why = plan.explain("stem.conv")
    assert any("computes in f16" in line and "PM-5" in line for line in why)
    assert set(plan.explain()) <= {"stem.conv", ""}
    with pytest.raises(ValueError, match="explain=True"):
        ascendprec.plan(example_onnx, soc_version="Ascend910").explain("stem.conv")


def test_progress_true_prints_the_phases(example_onnx, capfd):
    ascendprec.plan(example_onnx, soc_version="Ascend910", progress=True)
    err = capfd.readouterr().err
    assert "  plan precision ..." in err and " s\n" in err


def test_write_uses_the_output_folder_rules(example_onnx, tmp_path):
    plan = ascendprec.plan(example_onnx, soc_version="Ascend910")
    written = plan.write(tmp_path / "out")
    assert {"planned.mlir", "kernels.mlir", "report.json", "options.json"} <= set(written)
    for name in written:
        assert (tmp_path / "out" / name).is_file()
    options = json.loads((tmp_path / "out" / "options.json").read_text())
    assert options["soc_version"] == "Ascend910"
    # write() comes once, last: the planned module's weights went to it.
    with pytest.raises(ascendprec.OutputError, match="already written"):
        plan.write(tmp_path / "again")


def test_progress_callback_hears_the_phases(example_onnx):
    events = []
    ascendprec.plan(example_onnx, soc_version="Ascend910",
                    progress=lambda event, text: events.append((event, text)))
    begun = [text for event, text in events if event == "begin"]
    assert begun[:2] == ["resolve options and files", "load example.onnx"]
    assert "plan precision" in begun and "lower to kernels" in begun
    assert sum(1 for event, _ in events if event == "end") == len(begun)


def test_progress_callback_errors_propagate(example_onnx):
    def fail(event, text):
        raise ValueError("stop at " + text)

    with pytest.raises(ValueError, match="stop at resolve options and files"):
        ascendprec.plan(example_onnx, soc_version="Ascend910", progress=fail)


def test_long_work_releases_the_gil(example_onnx):
    import threading
    import time

    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        plan = ascendprec.plan(example_onnx, soc_version="Ascend910")
        plan.run(iterations=3)
    finally:
        done.set()
        ticker.join()
    # Planning and running take well over 50 ms; a held GIL would stall the
    # ticker for all of it.
    gaps = np.diff(ticks)
    assert len(ticks) > 20 and gaps.max() < 0.5


def test_warnings_reach_python(example_onnx, mixlist):
    # KD-4: keep_dtype entries that match no op (here a JSON file's lines).
    with pytest.warns(ascendprec.PlanWarning, match=r"keep_dtype entries match no op.*\[KD-4\]"):
        plan = ascendprec.plan(example_onnx, soc_version="Ascend910", keep_dtype=mixlist)
    assert any(w["rule"] == "KD-4" and w["file"] == mixlist for w in plan.warnings)


def test_atc_refusals_reach_python(example_onnx, tmp_path):
    # A model exported at opset 19: ATC's parser has no plugin for any
    # standard op there (E13010, docs/onnx-import.md); planned all the same.
    from onnx import TensorProto, helper
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu")], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 8])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    model.ir_version = 8
    path = tmp_path / "opset19.onnx"
    path.write_bytes(model.SerializeToString())
    with pytest.warns(ascendprec.PlanWarning, match=r"E13010: No operator plugin is registered "
                                                    r"for Op: relu, optype: ai\.onnx::19::Relu\."):
        plan = ascendprec.plan(path, soc_version="Ascend910B3")
    assert plan.summary["atc_refused_nodes"] == 1
    [refusal] = plan.atc_refusals
    assert refusal["key"] == "ai.onnx::19::Relu" and refusal["nodes"] == ["relu"]
    assert refusal["plugin_opsets"] == "8-18"
    assert refusal["way_forward"].startswith("export at opset 18 or lower")
    assert json.loads(plan.to_json())["atc_refusals"]["nodes"] == 1
    with pytest.raises(ascendprec.ModelError, match=r"E13010") as error:
        ascendprec.plan(path, soc_version="Ascend910B3", atc_refusals="error")
    assert error.value.node == "relu"
    with pytest.raises(ValueError, match="atc_refusals takes 'warn' or 'error'"):
        ascendprec.plan(path, soc_version="Ascend910B3", atc_refusals="ignore")
    # A model ATC converts: nothing refused.
    clean = ascendprec.plan(example_onnx, soc_version="Ascend910B3")
    assert clean.atc_refusals == [] and clean.summary["atc_refused_nodes"] == 0
