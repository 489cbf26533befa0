// The named pipeline on the bundled example: plan, materialize, clean up,
// and the report files.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-opt %ascendprec_src/examples/cnn_transformer.mlir --prec-graph-prepare \
// RUN:   --prec-precision-pipeline="soc_version=Ascend910 precision_mode=allow_mix_precision report=%t/report.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t/report.json
// RUN: FileCheck %s --check-prefix=TEXT < %t/report.txt
// RUN: FileCheck %s --check-prefix=DOT < %t/report.dot
// RUN: FileCheck %s --check-prefix=HTML < %t/report.html
// RUN: FileCheck %s --check-prefix=LOCK < %t/report.lock.cfg
// The report validates against its schema.
// RUN: %python %ascendprec_src/scripts/validate-report.py %ascendprec_src/docs/reference/report.schema.json %t/report.json

// UB fusion changes no decision (FU-4): stem.relu and attn.residual compute
// in fp16 as alone, on their cube op's converted result; no Cast joins a group.
// CHECK: module attributes {ascend.casts_inserted = 4 : i64, ascend.casts_removed = 0 : i64, ascend.constants_converted = 6 : i64
// CHECK-LABEL: func.func @main
// CHECK: ascend.SoftmaxV2 {{.*}} : tensor<1x16x16xf32>

// JSON:      "soc_version": "Ascend910",
// JSON:      "summary": {
// JSON-NEXT:   "ops": 14,
// JSON-NEXT:   "generic_ops": 0,
// JSON-NEXT:   "by_compute_dtype": {
// JSON-NEXT:     "float16": 13,
// JSON-NEXT:     "float32": 1
// JSON:        "by_engine": {
// JSON-NEXT:     "AICPU": 0,
// JSON-NEXT:     "AICore-cube": 5,
// JSON-NEXT:     "AICore-vector": 9
// JSON:        "casts_inserted": 4,
// JSON-NEXT:   "casts_in_ub_groups": 0,
// JSON-NEXT:   "casts_removed": 0,
// JSON:        "fusions": {
// JSON-NEXT:     "ConvBatchnormFusionPass": 1,
// JSON-NEXT:     "TbeCommonRules0FusionPass": 1,
// JSON-NEXT:     "TbeMatmulElemwiseFusionPass": 1
// JSON:        "name": "stem.conv",
// JSON-NEXT:   "op_type": "Conv2D",
// JSON-NEXT:   "generic": false,
// JSON-NEXT:   "inserted_cast": false,
// JSON-NEXT:   "engine": "AICore-cube",
// JSON-NEXT:   "origin_dtype": "float32",
// JSON-NEXT:   "compute_dtype": "float16",
// JSON:        "list": "white",
// JSON-NEXT:   "rule": "ML-2",
// JSON-NEXT:   "source": "built-in",
// JSON-NEXT:   "absorbed": [
// JSON-NEXT:     "stem.bn"
// JSON-NEXT:   ],
// JSON-NEXT:   "fused_by": [
// JSON-NEXT:     "ConvBatchnormFusionPass"
// JSON-NEXT:   ]
// JSON:        "name": "attn.softmax",
// JSON:        "compute_dtype": "float32",
// JSON:        "rule": "ML-3",

// TEXT: SoC Ascend910, precision mode allow_mix_precision: 14 ops, 1 fused (ConvBatchnormFusionPass 1), 2 UB groups (TbeCommonRules0FusionPass 1, TbeMatmulElemwiseFusionPass 1), 4 casts inserted, 0 removed
// TEXT: stem.conv (+stem.bn) Conv2D AICore-cube float32 float16
// TEXT: attn.scores/Cast_float32 (inserted)

// DOT: digraph precision {
// DOT: "attn.softmax" [label="attn.softmax\nSoftmaxV2 [float32, AICore-vector]\nML-3", fillcolor="#fdae6b"];
// DOT: "attn.scores/Cast_float32" [{{.*}}shape=diamond, color=red
// DOT: "attn.scores" -> "attn.scores/Cast_float32";

// HTML: <h1>Precision plan: Ascend910, allow_mix_precision</h1>
// HTML: <tr class="cast"

// LOCK: # customize_dtypes lockfile written by AscendPrec for Ascend910 under allow_mix_precision.
// LOCK: stem.conv::InputDtype:float16,float16,float16,OutputDtype:float16
// LOCK: attn.softmax::InputDtype:float32,OutputDtype:float32
