"""Every error type, with where it happened and the rule that decided it."""

import os

import numpy as np

import pytest

import ascendprec


def test_option_errors_name_the_option_and_rule(example_onnx):
    with pytest.raises(ascendprec.OptionError) as raised:
        ascendprec.plan(example_onnx, soc_version="Ascend910", precison_mode="force_fp16")
    error = raised.value
    assert error.rule == "OP-1" and error.step == "options" and error.kind == "user"
    # In Python's words: options are keyword arguments, not --flags.
    assert error.message == "unknown option 'precison_mode'; did you mean 'precision_mode'?"
    assert error.file == "<options>"
    assert error.diagnostics and error.diagnostics[0]["severity"] == "error"

    with pytest.raises(ascendprec.OptionError) as raised:
        ascendprec.plan(example_onnx, soc_version="Ascend910", precision_mode="fast")
    assert raised.value.rule == "PM-1"

    # PM-12: a bf16 mode on a SoC without bf16.
    with pytest.raises(ascendprec.OptionError, match="needs bfloat16") as raised:
        ascendprec.plan(example_onnx, soc_version="Ascend910",
                        precision_mode="allow_mix_precision_bf16")
    assert raised.value.rule == "PM-12"


def test_config_file_errors_give_file_line_and_column(example_onnx, tmp_path):
    bad = tmp_path / "customize.cfg"
    bad.write_text("stem.conv::InputDtype:fp32,fp32,fp32\n")
    with pytest.raises(ascendprec.OptionError) as raised:
        ascendprec.plan(example_onnx, soc_version="Ascend910", customize_dtypes=bad)
    error = raised.value
    assert error.file == str(bad) and error.line == 1 and error.column > 1
    assert "unknown dtype 'fp32'" in error.message
    assert error.location == "%s:1:%d" % (bad, error.column)
    with pytest.raises(ascendprec.OptionError, match="no such file") as raised:
        ascendprec.plan(example_onnx, soc_version="Ascend910", keep_dtype=tmp_path / "none.cfg")
    assert raised.value.rule == "KD-1"


def test_model_errors(example_mlir, tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @main(%x: tensor<2xf32>) -> tensor<2xf16> {\n"
                   "  return %x : tensor<2xf16>\n}\n")
    with pytest.raises(ascendprec.ModelError) as raised:
        ascendprec.plan(bad, soc_version="Ascend910")
    assert raised.value.file == str(bad) and raised.value.line == 2
    with pytest.raises(ascendprec.ModelError, match="cannot read the model"):
        ascendprec.plan(tmp_path / "missing.onnx", soc_version="Ascend910")
    with pytest.raises(ascendprec.ModelError, match="expected .onnx or .mlir"):
        ascendprec.plan(__file__, soc_version="Ascend910")
    # PM-9: an op the SoC cannot compute in its origin dtype, at its line.
    with pytest.raises(ascendprec.ModelError) as raised:
        ascendprec.plan(example_mlir, soc_version="Ascend910",
                        precision_mode="must_keep_origin_dtype")
    error = raised.value
    assert error.rule == "PM-9" and error.file == example_mlir and error.line > 0
    assert "cannot keep its origin dtype float32" in error.message
    assert error.node == "" or error.node == "stem.conv"
    assert any(d["rule"] == "PM-9" for d in error.diagnostics)


def test_output_errors_keep_the_users_files(example_onnx, tmp_path):
    plan = ascendprec.plan(example_onnx, soc_version="Ascend910")
    with pytest.raises(ascendprec.OutputError, match="holds"):
        plan.write(os.path.dirname(example_onnx))
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "report.json").write_text("mine")
    plan = ascendprec.plan(example_onnx, soc_version="Ascend910")
    with pytest.raises(ascendprec.OutputError, match="report.json"):
        plan.write(theirs)
    assert (theirs / "report.json").read_text() == "mine"
    assert sorted(os.listdir(theirs)) == ["report.json"]


def test_internal_errors_are_their_own_class():
    made = ascendprec._errors.from_engine("plan", "internal", "", 0, 0, "", "",
                                          "planning produced invalid IR", [], [],
                                          "ascendprec: internal error: planning produced "
                                          "invalid IR")
    assert isinstance(made, ascendprec.InternalError) and isinstance(made, ascendprec.Error)
    assert str(made).startswith("ascendprec: internal error")


def test_steps_out_of_order_are_refused(example_onnx):
    session = ascendprec._ascendprec._Session({"soc_version": "Ascend910"})
    with pytest.raises(ascendprec.Error, match="needs resolve"):
        session.load_file(str(example_onnx))
    session.resolve()
    session.load_file(str(example_onnx))
    with pytest.raises(ascendprec.Error, match="needs plan"):
        session.run()
    session.plan()
    with pytest.raises(ascendprec.Error, match="keepImported"):
        session.run()
        session.compare_modes()


def test_bad_settings_raise_value_errors(example_onnx):
    plan = ascendprec.plan(example_onnx, soc_version="Ascend910")
    with pytest.raises(ValueError):
        plan.run(threads=0)
    with pytest.raises(ValueError):
        ascendprec.set_kernel_cache("")
    with pytest.raises(ValueError, match="is a file, not a folder"):
        ascendprec.set_kernel_cache(__file__)
    # A file on the way to the folder (issue 55): refused, not uncached.
    with pytest.raises(ValueError, match="so '.*/sub' cannot be created"):
        ascendprec.set_kernel_cache(__file__ + "/sub")


def test_python_arguments_are_checked_with_clear_errors(example_onnx, tmp_path):
    with pytest.raises(TypeError, match="keep_dtype takes the path of a file"):
        ascendprec.plan(example_onnx, soc_version="Ascend910", keep_dtype=["attn.softmax"])
    with pytest.raises(TypeError, match="keep_io_dtypes takes True or False"):
        ascendprec.plan(example_onnx, soc_version="Ascend910", keep_io_dtypes="no")
    with pytest.raises(TypeError, match="progress takes True, or a callable"):
        ascendprec.plan(example_onnx, soc_version="Ascend910", progress=3)
    plan = ascendprec.plan(example_onnx, soc_version="Ascend910")
    with pytest.raises(TypeError, match=r"inputs takes numpy arrays by input name"):
        plan.run(np.zeros((1, 3, 16, 16), np.float32))
    with pytest.raises(ValueError, match="seed takes a whole number from 0"):
        plan.run(seed=-1)
    with pytest.raises(TypeError, match=r"ranges\['image'\] takes \(low, high\)"):
        plan.run(ranges={"image": 1})
    with pytest.raises(KeyError, match="no op named 'nope'"):
        plan.op("nope")
    with pytest.raises(ascendprec.ModelError, match="is a folder"):
        ascendprec.plan(tmp_path, soc_version="Ascend910")
    # The target is checked before any work, and a SoC in its place named.
    with pytest.raises(ValueError, match="soc_version='Ascend910B3'"):
        ascendprec.search_precision(example_onnx, "Ascend910B3")
    with pytest.raises(ascendprec.SearchError, match="cosine"):
        ascendprec.search_precision(example_onnx, "cos>0.99", soc_version="Ascend910B3")


def test_after_write_the_plan_says_so(example_onnx, tmp_path):
    plan = ascendprec.plan(example_onnx, soc_version="Ascend910")
    plan.write(tmp_path / "out")
    with pytest.raises(ascendprec.RunError, match="the outputs were written: write\\(\\) comes last"):
        plan.run()
