//===- Results.cpp - the engine's typed results as Python values ----------===//

#include "Results.h"

#include <pybind11/stl.h>

#include <cmath>

namespace py = pybind11;

namespace ascendprec::python {

namespace {

/// None for an absent figure.
py::object optionalNumber(const std::optional<double> &value) {
  return value ? py::object(py::float_(*value)) : py::object(py::none());
}

py::list outputsOf(const std::vector<session::OutputAccuracy> &outputs) {
  py::list list;
  for (const session::OutputAccuracy &output : outputs)
    list.append(outputAccuracyOf(output));
  return list;
}

const char *searchKindName(session::SearchOutcome::Kind kind) {
  switch (kind) {
  case session::SearchOutcome::Kind::Found:
    return "found";
  case session::SearchOutcome::Kind::BuiltInMode:
    return "built_in_mode";
  case session::SearchOutcome::Kind::Unreachable:
    return "unreachable";
  case session::SearchOutcome::Kind::Failed:
    return "failed";
  }
  return "failed";
}

} // namespace

py::list opsOf(const report::ReportData &report) {
  py::list ops;
  for (const report::ReportNode &node : report.nodes) {
    py::dict op;
    op["name"] = node.name;
    op["op_type"] = node.opType;
    op["engine"] = node.engine;
    op["origin_dtype"] = node.originDType;
    op["compute_dtype"] = node.computeDType;
    op["input_dtypes"] = node.inputDTypes;
    op["output_dtypes"] = node.outputDTypes;
    op["impl_mode"] = node.implMode;
    op["list"] = node.list;
    op["rule"] = node.rule;
    op["source"] = node.source;
    op["absorbed"] = node.absorbed;
    op["fused_by"] = node.fusedBy;
    op["ub_group"] = node.bufferGroup;
    op["ub_pass"] = node.bufferPass;
    op["inserted_cast"] = node.insertedCast;
    op["generic"] = node.generic;
    op["region"] = node.region;
    op["kernel"] = node.kernel;
    op["est_us"] = optionalNumber(node.estUs);
    op["rel_err"] = optionalNumber(node.relErr);
    ops.append(op);
  }
  return ops;
}

py::dict summaryOf(const report::ReportData &report) {
  py::dict summary;
  summary["soc_version"] = report.socVersion;
  summary["precision_mode"] = report.precisionMode;
  summary["ops"] = report.plannedCount();
  summary["generic_ops"] = report.genericCount();
  summary["casts_inserted"] = report.castsInserted;
  summary["casts_removed"] = report.castsRemoved;
  summary["fusions"] = report.fusionsByPass();
  summary["ub_groups"] = report.bufferGroupsByPass();
  summary["lowered"] = report.lowered;
  summary["kernels"] = report.kernels.size();
  summary["distinct_kernels"] = report.distinctKernels();
  summary["unlowered"] = report.unlowered;
  summary["est_device_us"] = report.estDeviceUs();
  summary["est_launch_us"] = report.estLaunchUs();
  summary["est_us_by_engine"] = report.estUsByEngine();
  summary["options"] = report.options;
  summary["text"] = report::reportSummaryLine(report);
  // ATC's refusals (E13010): nodes whose parser key no CANN plugin registers.
  summary["atc_refused_nodes"] = policy::atcRefusedNodeCount(report.atcRefusals);
  return summary;
}

py::list atcRefusalsOf(const report::ReportData &report) {
  py::list refusals;
  for (const policy::AtcRefusal &refusal : report.atcRefusals) {
    py::dict entry;
    entry["op_type"] = refusal.opType;
    entry["domain"] = refusal.domain;
    entry["opset"] = refusal.opset;
    entry["key"] = refusal.key;
    entry["nodes"] = refusal.nodes;
    entry["plugin_opsets"] = refusal.pluginOpsets;
    entry["way_forward"] = refusal.wayForward;
    entry["message"] = policy::atcRefusalMessage(refusal);
    refusals.append(entry);
  }
  return refusals;
}

py::dict errorStatsOf(const session::ErrorStats &stats) {
  py::dict dict;
  dict["elements"] = stats.elements;
  dict["max_abs_err"] = stats.maxAbsErr;
  dict["max_rel_err"] = stats.maxRelErr;
  dict["rmse"] = stats.rmse;
  dict["rel_rmse"] = stats.relRmse;
  dict["cosine"] = stats.cosine;
  dict["non_finite"] = stats.nonFinite;
  dict["reference_non_finite"] = stats.referenceNonFinite;
  return dict;
}

py::dict outputAccuracyOf(const session::OutputAccuracy &output) {
  py::dict dict;
  dict["name"] = output.name;
  dict["vs_reference"] = errorStatsOf(output.vsReference);
  dict["vs_expected"] =
      output.vsExpected ? py::object(errorStatsOf(*output.vsExpected)) : py::object(py::none());
  dict["reference_vs_expected"] = output.referenceVsExpected
                                      ? py::object(errorStatsOf(*output.referenceVsExpected))
                                      : py::object(py::none());
  dict["within_tolerance"] = output.withinTolerance;
  return dict;
}

py::dict accuracyOf(const session::AccuracyResult &accuracy) {
  py::dict dict;
  dict["outputs"] = outputsOf(accuracy.outputs);
  py::list ops;
  for (const session::OpAccuracy &op : accuracy.ops) {
    py::dict entry;
    entry["nodes"] = op.nodes;
    entry["kernel"] = op.kernel;
    entry["vs_reference"] = errorStatsOf(op.vsReference);
    entry["input_rel_rmse"] = op.inputRelRmse;
    entry["host_ms"] = op.hostMs;
    ops.append(entry);
  }
  dict["ops"] = ops;
  py::list jumps;
  for (size_t index : accuracy.errorJumps)
    jumps.append(accuracy.ops[index].nodes.empty() ? accuracy.ops[index].kernel
                                                   : accuracy.ops[index].nodes.front());
  dict["error_jumps"] = jumps;
  dict["jit_ms"] = accuracy.jitMs;
  dict["reference_jit_ms"] = accuracy.referenceJitMs;
  dict["run_ms"] = accuracy.runMs;
  dict["median_run_ms"] = accuracy.medianRunMs();
  return dict;
}

py::list modesOf(const std::vector<report::ReportModeComparison> &modes,
                 const std::vector<std::vector<session::OutputAccuracy>> &outputs) {
  py::list list;
  for (size_t i = 0; i < modes.size(); ++i) {
    const report::ReportModeComparison &mode = modes[i];
    py::dict row;
    row["mode"] = mode.mode;
    row["low_precision_ops"] = mode.lowPrecisionOps;
    row["casts"] = mode.casts;
    row["est_device_us"] = mode.estDeviceUs;
    bool ran = i < outputs.size() && !outputs[i].empty();
    row["rel_rmse"] = ran ? py::object(py::float_(mode.relRmse)) : py::object(py::none());
    row["note"] = mode.note;
    row["outputs"] = ran ? outputsOf(outputs[i]) : py::list();
    list.append(row);
  }
  return list;
}

py::dict searchOf(const session::SearchOutcome &outcome) {
  py::dict dict;
  dict["kind"] = searchKindName(outcome.kind);
  dict["start_mode"] = outcome.startMode;
  dict["precision_mode"] = outcome.precisionMode;
  dict["mode_option"] = outcome.modeOption;
  dict["raised_nodes"] = outcome.edits.nodeNames;
  dict["raised_op_types"] = outcome.edits.opTypes;
  dict["evaluations"] = outcome.evaluations;
  dict["est_device_us"] = outcome.estDeviceUs;
  dict["outputs"] = outputsOf(outcome.outputs);
  dict["message"] = outcome.message;
  dict["hint"] = outcome.hint;
  dict["notes"] = outcome.notes;
  py::list steps;
  for (size_t i = 0; i < outcome.steps.size(); ++i) {
    const session::SearchStep &step = outcome.steps[i];
    py::dict entry;
    entry["action"] = step.action;
    entry["changed"] = step.changed;
    entry["raised_ops"] = step.raisedOps;
    entry["est_device_us"] = step.estDeviceUs;
    entry["outputs"] = outputsOf(step.outputs);
    entry["meets"] = step.meets;
    entry["kept"] = step.kept;
    entry["note"] = step.note;
    entry["result"] = static_cast<int>(i) == outcome.resultStep;
    steps.append(entry);
  }
  dict["steps"] = steps;
  return dict;
}

} // namespace ascendprec::python
