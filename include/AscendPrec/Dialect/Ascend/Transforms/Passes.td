//===- Passes.td - AscendPrec transformation passes --------*- tablegen -*-===//

#ifndef ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_PASSES_TD
#define ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CheckNodeNames : Pass<"prec-check-node-names", "::mlir::ModuleOp"> {
  let summary = "Requires every ascend op to have a unique node name";
  let description = [{
    Node names are the keys of `Opname::` lines in customize_dtypes, of name
    lines in keep_dtype and of `[ByNodeName]` sections in op_precision_mode,
    and the names the report uses. Two ops with one name would make those
    entries ambiguous, so this pass rejects duplicates: the second use gets
    an error with a note at the first.

    With `rename-duplicates=true` the first use keeps its name and every later
    one is renamed to `<name>_<n>` (the smallest free `n`), with a remark
    saying so. Ops fused into another (`absorbed`) count as uses too.

    Example:
    ```
    prec-opt --prec-check-node-names=rename-duplicates=true model.mlir
    ```
  }];
  let options = [
    Option<"renameDuplicates", "rename-duplicates", "bool",
           /*default=*/"false",
           "Rename later duplicates to <name>_<n> instead of failing">
  ];
}

def GraphFusion : Pass<"prec-graph-fusion", "::mlir::ModuleOp"> {
  let summary = "Runs the graph fusion passes CANN runs before operator selection";
  let description = [{
    Runs the enabled graph fusion passes (FU-1), by CANN's names, in the
    order `prec-compile --list-fusion-passes` prints them: general passes
    unless a `fusion_switch_file` turns them off, non-general ones when
    `enable_scope_fusion_passes` names them. The op a match keeps (the Conv
    or MatMul) keeps its node name and records the names it absorbed in
    `absorbed` and the pass in `fused_by`; keep_dtype and op_precision_mode
    [ByNodeName] entries for an absorbed name still apply to it (FU-3).

    A customize_dtypes pin by name on an absorbed node is dropped, as CANN
    drops it, with a warning naming the entry, the node, the fused op and the
    pass (FU-2, CD-7). With `respect-pins` (our extension), a match that
    would absorb a pinned or keep_dtype node is skipped instead, with a
    remark saying so.

    Takes the same CANN options as `prec-plan-precision` (`soc_version` is
    required; `customize_dtypes`, `keep_dtype`, `enable_scope_fusion_passes`
    and `fusion_switch_file` are the ones it reads).

    ```
    prec-opt --prec-graph-fusion="soc_version=Ascend910 customize_dtypes=pins.cfg" model.mlir
    ```
  }];
  let options = [
    Option<"sessionOptions", "session_options", "std::string", /*default=*/"",
           "JSON file of CANN options (the pass options win)">,
    Option<"respectPins", "respect-pins", "bool", /*default=*/"false",
           "Skip a match that would absorb a customize_dtypes or keep_dtype "
           "node (AscendPrec's extension; CANN drops the pin)">
  ];
  let dependentDialects = ["::ascendprec::ascend::AscendDialect"];
}

def BufferFusion : Pass<"prec-buffer-fusion", "::mlir::ModuleOp"> {
  let summary = "Groups a cube op with the elementwise ops after it, and elementwise chains (UB fusion)";
  let description = [{
    Runs after `prec-plan-precision`, as CANN's UB fusion runs after
    operator selection (FU-1): `TbeCommonRules0FusionPass` for Conv2D and
    `TbeMatmulElemwiseFusionPass` for MatMulV2 / BatchMatMulV2. A cube op on
    the AI Core and the chain of elementwise vector ops after it, each the
    previous one's only user, become one kernel (`ascend.ub_group`, the
    cube op's name); the lowering builds one kernel per group. After a
    Conv2D, as CANN's pass takes them: up to 3 elementwise ops of any kind
    (at most two inputs, the chain's shape kept, a side input whole or a
    scalar), 4 or 5 only when all are in CANN's white list (Relu, Relu6,
    LeakyRelu, PRelu, Add, Mul, Minimum, Sigmoid, Tanh, Softplus, Mish,
    Swish), else none. After a matmul: up to four of Relu, LeakyRelu, Add,
    Sub, Mul and ClipByValue. `TbeConv2dAddClipMulDivFusionPass` takes the
    hard-swish opset-9 exporters write after a Conv2D, y * Clip(y + a, lo,
    hi) / d (the Conv2D read by the Add and the Mul only; the divisor may be
    a Mul by a scalar), before `TbeCommonRules0FusionPass` looks at it.
    Then `TbeEltwiseFusionPass` groups what no cube group took: up to six
    consecutive elementwise vector ops (ClipByValue included), each the
    previous one's only user, keeping the first one's shape; the group
    takes the first op's name and lowers to one vector kernel.

    No decision changes (FU-4): CANN converts the cube's fp32 accumulator
    to the cube op's output dtype on its way out of L0C (into UB on the
    Ascend910/310P, by the FixPipe's pre_conv on the 910B family) and the
    chain ops compute as they would alone. Each member gets
    `ascend.ub_step`, where it converts or computes (for the report and
    `--explain`). An op pinned by customize_dtypes or keep_dtype joins
    with its pinned dtypes (no decision changes), so a lockfile replays the
    groups.

    Takes the same CANN options as `prec-plan-precision`
    (`fusion_switch_file` can turn any of the four off).
  }];
  let options = [
    Option<"sessionOptions", "session_options", "std::string", /*default=*/"",
           "JSON file of CANN options (the pass options win)">
  ];
  let dependentDialects = ["::ascendprec::ascend::AscendDialect"];
}

def PlanPrecision : Pass<"prec-plan-precision", "::mlir::ModuleOp"> {
  let summary = "Decides every op's dtypes, engine and implementation mode";
  let description = [{
    Applies the precision mode (PM-4..PM-12), the mixed-precision lists
    (ML-1..ML-4), keep_dtype (KD-2..KD-5), customize_dtypes (CD-4..CD-6) and
    the implementation-mode rules (IM-5..IM-7) to every `ascend` op except
    `ascend.Const`, and attaches the decision as `precision =
    #ascend.precision<...>` (with the deciding rule ID and `built-in` or the
    `file:line` of the entry that decided) and `impl_mode`. Types are not
    changed; `prec-materialize-precision` does that.

    It takes CANN's options under CANN's names: `soc_version` (required),
    `graph_run_mode`, `precision_mode`, `precision_mode_v2`, and the option
    files and modes marked "pass option" in docs/reference/options.md. They
    are declared from the option table (lib/Policy/OptionTable.cpp) at run
    time, so they are not listed under Options below. `session_options`
    names a JSON file of the same options; the pass options win (OP-1).

    Errors (CD-5, PM-6, PM-7, PM-9, ML-3) are op errors with a note at the
    config line. With `explain`, every op gets a remark saying why (with
    `explain-only`, just the named nodes and `OpType::` types).

    ```
    prec-opt --prec-plan-precision="soc_version=Ascend910 precision_mode=allow_mix_precision modify_mixlist=ops_info.json explain=true" model.mlir
    ```
  }];
  let options = [
    Option<"sessionOptions", "session_options", "std::string", /*default=*/"",
           "JSON file of CANN options (the pass options win)">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit one remark per op saying what it computes in and why">,
    ListOption<"explainOnly", "explain-only", "std::string",
               "With explain: only these node names and OpType::<type> entries "
               "(a warning names those that match nothing)">
  ];
  let dependentDialects = ["::ascendprec::ascend::AscendDialect"];
}

def MaterializePrecision : Pass<"prec-materialize-precision", "::mlir::ModuleOp"> {
  let summary = "Rewrites element types and inserts Casts to follow the plan";
  let description = [{
    Gives every planned op's operands and results the dtypes of its
    `#ascend.precision` decision. Where a producer's dtype differs from what
    a consumer needs, an `ascend.Cast` is inserted (one per value and dtype,
    named `<value>/Cast_<dtype>`); a constant is converted at compile time
    instead, never by a runtime Cast. Function inputs and outputs keep their
    dtypes (Casts at the boundary) unless `keep-io-dtypes=false`.
  }];
  let options = [
    Option<"keepIoDtypes", "keep-io-dtypes", "bool", /*default=*/"true",
           "Keep the function signature's dtypes (insert boundary Casts)">
  ];
  let statistics = [
    Statistic<"numCastsInserted", "casts-inserted", "Casts inserted">,
    Statistic<"numConstantsConverted", "constants-converted",
              "Constants converted at compile time">
  ];
}

def CleanupCasts : Pass<"prec-cleanup-casts", "::mlir::ModuleOp"> {
  let summary = "Removes Casts that do not change values";
  let description = [{
    Removes Casts to the same type, exact round trips (`f16 -> f32 -> f16`),
    merges chains whose first step is exact, folds Casts of constants, and
    merges duplicate Casts of one value to one dtype (the kept Cast lists the
    others' names in `absorbed`). A lossy round trip such as
    `f32 -> f16 -> f32` that the plan requires is never removed.
  }];
  let statistics = [
    Statistic<"numCastsRemoved", "casts-removed", "Casts removed">
  ];
}

def PrecisionReport : Pass<"prec-precision-report", "::mlir::ModuleOp"> {
  let summary = "Writes the precision report, picture and lockfile";
  let description = [{
    Reads the decisions on the ops and writes, for every path given:
    `report` (JSON, schema in docs/reference/report.md), `report-text` (a
    table for the terminal), `report-dot` (Graphviz, ops coloured by compute
    dtype, inserted Casts marked), `report-html` (the same as a page), and
    `lockfile` (customize_dtypes lines that reproduce every decision when
    fed back as `customize_dtypes`). Use `-` for standard output.
  }];
  let options = [
    Option<"report", "report", "std::string", /*default=*/"", "JSON report path">,
    Option<"reportText", "report-text", "std::string", /*default=*/"",
           "text table path">,
    Option<"reportDot", "report-dot", "std::string", /*default=*/"",
           "Graphviz picture path">,
    Option<"reportHtml", "report-html", "std::string", /*default=*/"",
           "HTML page path">,
    Option<"lockfile", "lockfile", "std::string", /*default=*/"",
           "customize_dtypes lockfile path">
  ];
}

#endif // ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_PASSES_TD
