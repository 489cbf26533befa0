"""compare_modes() and search_precision(): every mode measured on the same
inputs, and the fastest plan meeting a target as CANN files."""

import json
import subprocess

import pytest

import ascendprec


def test_compare_modes_matches_the_cli(example_onnx, prec_compile, tmp_path):
    comparison = ascendprec.compare_modes(example_onnx, soc_version="Ascend910B3", seed=5)
    cli = tmp_path / "cli"
    subprocess.run([prec_compile, str(example_onnx), "--soc_version=Ascend910B3",
                    "--compare-modes", "--run-seed=5", "--output=" + str(cli), "--quiet"],
                   check=True, capture_output=True)
    rows = json.loads((cli / "compare.json").read_text())["modes"]
    assert [mode.mode for mode in comparison.modes] == [row["precision_mode"] for row in rows]
    for mode, row in zip(comparison.modes, rows):
        assert mode.est_device_us == pytest.approx(row["est_device_us"], rel=1e-9)
        if mode.rel_rmse is not None:
            assert mode.rel_rmse == row["rel_rmse"]
    # PM-13: force_fp32 is the most accurate (on a model this small the
    # casts make fp16 no faster, so the times are not compared).
    fp16, fp32 = comparison.mode("force_fp16"), comparison.mode("force_fp32")
    assert fp32.rel_rmse <= fp16.rel_rmse
    assert fp16.outputs[0].name == "out"
    assert "force_fp16" in str(comparison)
    written = comparison.write(tmp_path / "py")
    assert "compare.json" in written and "accuracy.json" in written


def test_modes_a_soc_cannot_take_carry_the_reason(example_onnx):
    comparison = ascendprec.compare_modes(example_onnx, soc_version="Ascend910")
    bf16 = comparison.mode("allow_mix_precision_bf16")
    assert bf16.rel_rmse is None and "PM-12" in bf16.note


def test_search_finds_a_plan_and_its_cann_files(example_onnx, tmp_path):
    result = ascendprec.search_precision(example_onnx, "cosine>=0.999999",
                                         soc_version="Ascend910B3", budget=8)
    assert result.kind in ("found", "built_in_mode")
    assert result.steps and result.steps[0].action.startswith("start: ")
    assert any(step.result for step in result.steps) or result.kind == "built_in_mode"
    assert result.outputs[0].vs_reference.cosine >= 0.999999
    assert "options.json" in result.files
    options = json.loads(result.files["options.json"])
    assert options["soc_version"] == "Ascend910B3"
    if result.raised_nodes:
        assert "keep_dtype.cfg" in result.files
        for node in result.raised_nodes:
            assert node in result.files["keep_dtype.cfg"]
    written = result.write(tmp_path / "out")
    assert "search/options.json" in written
    # The files reproduce the plan: planning from them gives its dtypes.
    again = ascendprec.plan(example_onnx,
                            session_options=tmp_path / "out" / "search" / "options.json")
    assert again.precision_mode == result.precision_mode
    assert "Found" in str(result) or "built-in" in str(result)


def test_search_errors(example_onnx):
    with pytest.raises(ascendprec.SearchError, match="cosine similarity bound"):
        ascendprec.search_precision(example_onnx, "cosine>=1.5", soc_version="Ascend910B3")
    with pytest.raises(ascendprec.SearchError, match="logits"):
        ascendprec.search_precision(example_onnx, "logits:cosine>=0.99",
                                    soc_version="Ascend910B3")
    # Not even force_fp32 reaches an error of 0 against the fp32 reference
    # when the reference and the plan differ; a bound below fp32's own
    # rounding cannot be met by any plan in fp16.
    with pytest.raises(ascendprec.SearchError) as raised:
        ascendprec.search_precision(example_onnx, "max_abs_err<=1e-30",
                                    soc_version="Ascend910", precision_mode="force_fp16",
                                    budget=3)
    assert raised.value.step == "search"
