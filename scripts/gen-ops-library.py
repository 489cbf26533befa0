#!/usr/bin/env python3
"""Generates data/ops/<SoC>/: AscendPrec's built-in operator library in CANN's
own file formats (ops-info JSON, AI CPU kernel info, impl_mode .ini lists and
the platform-config .ini). The tables below are the single source of the
facts; data/ops/README.md says where each kind of fact came from and what was
assumed. Run after editing:  scripts/gen-ops-library.py [--check]"""

import json
import sys
from pathlib import Path

FP16, FP32, BF16 = "float16", "float", "bfloat16"
I8, U8, I32, I64, BOOL, F64 = "int8", "uint8", "int32", "int64", "bool", "double"
U16, U32, U64 = "uint16", "uint32", "uint64"

SOCS = ["Ascend910", "Ascend910B", "Ascend310P"]
HAS_BF16 = {"Ascend910": False, "Ascend910B": True, "Ascend310P": False}
# 910A and 310P cubes compute fp16/int8 only; 910B also fp32 and bf16.
FP32_CUBE = {"Ascend910": False, "Ascend910B": True, "Ascend310P": False}


def same(*dtypes):
    """Rows where every input and output has the same dtype."""
    return [("same", d) for d in dtypes]


def vector_float(soc, extra=()):
    rows = [FP16, FP32] + list(extra)
    if HAS_BF16[soc]:
        rows.append(BF16)
    return rows


def cube_rows(soc, n_in):
    """x, w, bias -> y rows of the cube ops."""
    def row(x, b, y):
        return ([x, x, b][:n_in], [y])
    rows = [row(FP16, FP16, FP16), row(FP16, FP32, FP32), row(I8, I32, I32)]
    if FP32_CUBE[soc]:
        rows += [row(FP32, FP32, FP32), row(BF16, BF16, BF16),
                 row(BF16, FP32, FP32)]
    return rows


# op type -> (inputs, outputs, precision_reduce or None, pattern)
# inputs/outputs: names; rows are computed per SoC by rows_for().
OPS = {
    "Conv2D": (["x", "filter", "bias"], ["y"], True, "Convolution"),
    "Conv2DBackpropInput": (["x", "filter", "bias"], ["y"], True, "Convolution"),
    "MatMulV2": (["x1", "x2", "bias"], ["y"], True, "Matmul"),
    "BatchMatMulV2": (["x1", "x2", "bias"], ["y"], True, "Matmul"),
    # Recurrent layers (white: matrix products each step). ONNX's operand
    # order: x, w, r, then the optional bias and initial states; CANN's
    # seq_length (ONNX's sequence_lens, int32) last.
    "DynamicRNN": (["x", "w", "r", "b", "init_h", "init_c", "seq_length"], ["y", "output_h", "output_c"],
                   True, "Opaque"),
    "DynamicGRUV2": (["x", "w", "r", "b", "init_h", "seq_length"], ["y", "output_h"], True,
                     "Opaque"),
    "RNN": (["x", "w", "r", "b", "init_h", "seq_length"], ["y", "output_h"], True, "Opaque"),
    "Add": (["x1", "x2"], ["y"], None, "Broadcast"),
    "Sub": (["x1", "x2"], ["y"], None, "Broadcast"),
    "Mul": (["x1", "x2"], ["y"], None, "Broadcast"),
    "RealDiv": (["x1", "x2"], ["y"], None, "Broadcast"),
    "Maximum": (["x1", "x2"], ["y"], None, "Broadcast"),
    "Minimum": (["x1", "x2"], ["y"], None, "Broadcast"),
    "Pow": (["x1", "x2"], ["y"], False, "Broadcast"),
    "Neg": (["x"], ["y"], None, "Elewise"),
    "Abs": (["x"], ["y"], None, "Elewise"),
    "Sqrt": (["x"], ["y"], None, "Elewise"),
    "Rsqrt": (["x"], ["y"], None, "Elewise"),
    "Exp": (["x"], ["y"], False, "Elewise"),
    "Log": (["x"], ["y"], False, "Elewise"),
    "Erf": (["x"], ["y"], None, "Elewise"),
    "Relu": (["x"], ["y"], None, "Elewise"),
    "LeakyRelu": (["x"], ["y"], None, "Elewise"),
    "PRelu": (["x", "weight"], ["y"], None, "Broadcast"),
    "Gelu": (["x"], ["y"], None, "Elewise"),
    "Sigmoid": (["x"], ["y"], None, "Elewise"),
    "HardSigmoid": (["x"], ["y"], None, "Elewise"),
    "Tanh": (["x"], ["y"], None, "Elewise"),
    "ClipByValue": (["x", "clip_value_min", "clip_value_max"], ["y"], None, "Broadcast"),
    "BiasAdd": (["x", "bias"], ["y"], None, "Broadcast"),
    "SoftmaxV2": (["x"], ["y"], False, "Opaque"),
    "LogSoftmaxV2": (["x"], ["y"], False, "Opaque"),
    "LayerNorm": (["x", "gamma", "beta"], ["y", "mean", "variance"], None, "Opaque"),
    "BatchNorm": (["x", "scale", "offset", "mean", "variance"], ["y"], None, "Opaque"),
    "InstanceNorm": (["x", "gamma", "beta"], ["y", "mean", "variance"], None, "Opaque"),
    "ReduceSum": (["x"], ["y"], False, "CommReduce"),
    "ReduceMean": (["x"], ["y"], False, "CommReduce"),
    "ReduceMax": (["x"], ["y"], None, "CommReduce"),
    "MaxPool": (["x"], ["y"], None, "Opaque"),
    "AvgPool": (["x"], ["y"], None, "Opaque"),
    "Reshape": (["x", "shape"], ["y"], None, "formatAgnostic"),
    "Transpose": (["x"], ["y"], None, "Opaque"),
    "ConcatV2": (["x"], ["y"], None, "Opaque"),
    "Split": (["x"], ["y"], None, "Opaque"),
    "StridedSlice": (["x"], ["y"], None, "Opaque"),
    "GatherV2": (["x", "indices"], ["y"], None, "Opaque"),
    "Pad": (["x", "constant_values"], ["y"], None, "Opaque"),
    "ResizeNearestNeighborV2": (["x"], ["y"], None, "Opaque"),
    "ResizeBilinearV2": (["x"], ["y"], None, "Opaque"),
    "Cast": (["x"], ["y"], None, "formatAgnostic"),
    "Reciprocal": (["x"], ["y"], None, "Elewise"),
    "Ceil": (["x"], ["y"], None, "Elewise"),
    "Floor": (["x"], ["y"], None, "Elewise"),
    "Round": (["x"], ["y"], None, "Elewise"),
    "Sign": (["x"], ["y"], None, "Elewise"),
    "Sin": (["x"], ["y"], False, "Elewise"),
    "Cos": (["x"], ["y"], False, "Elewise"),
    "Softplus": (["x"], ["y"], False, "Elewise"),
    "Softsign": (["x"], ["y"], None, "Elewise"),
    "Elu": (["x"], ["y"], None, "Elewise"),
    "Equal": (["x1", "x2"], ["y"], None, "Broadcast"),
    "Less": (["x1", "x2"], ["y"], None, "Broadcast"),
    "Greater": (["x1", "x2"], ["y"], None, "Broadcast"),
    "LessEqual": (["x1", "x2"], ["y"], None, "Broadcast"),
    "GreaterEqual": (["x1", "x2"], ["y"], None, "Broadcast"),
    "LogicalAnd": (["x1", "x2"], ["y"], None, "Broadcast"),
    "LogicalOr": (["x1", "x2"], ["y"], None, "Broadcast"),
    "LogicalNot": (["x"], ["y"], None, "Elewise"),
    "Select": (["condition", "x1", "x2"], ["y"], None, "Broadcast"),
    "ReduceMin": (["x"], ["y"], None, "CommReduce"),
    "ReduceProd": (["x"], ["y"], False, "CommReduce"),
    # Trigonometric and hyperbolic functions: black like Sin and Cos.
    "Tan": (["x"], ["y"], False, "Elewise"),
    "Asin": (["x"], ["y"], False, "Elewise"),
    "Acos": (["x"], ["y"], False, "Elewise"),
    "Atan": (["x"], ["y"], False, "Elewise"),
    "Sinh": (["x"], ["y"], False, "Elewise"),
    "Cosh": (["x"], ["y"], False, "Elewise"),
    "Asinh": (["x"], ["y"], False, "Elewise"),
    "Acosh": (["x"], ["y"], False, "Elewise"),
    "Atanh": (["x"], ["y"], False, "Elewise"),
    "HardSwish": (["x"], ["y"], None, "Elewise"),
    "Selu": (["x"], ["y"], None, "Elewise"),
    "ThresholdedRelu": (["x"], ["y"], None, "Elewise"),
    # Accumulating reductions: black like ReduceSum.
    "ReduceL1": (["x"], ["y"], False, "CommReduce"),
    "ReduceL2": (["x"], ["y"], False, "CommReduce"),
    "ReduceLogSum": (["x"], ["y"], False, "CommReduce"),
    "ReduceLogSumExp": (["x"], ["y"], False, "CommReduce"),
    "ReduceSumSquare": (["x"], ["y"], False, "CommReduce"),
    "ArgMaxV2": (["x"], ["indices"], None, "CommReduce"),
    "Shape": (["x"], ["y"], None, "Opaque"),
    "DepthToSpace": (["x"], ["y"], None, "Opaque"),
    "SpaceToDepth": (["x"], ["y"], None, "Opaque"),
    "IsInf": (["x"], ["y"], None, "Elewise"),
    "IsNan": (["x"], ["y"], None, "Elewise"),
    "ArgMin": (["x"], ["indices"], None, "CommReduce"),
    # 3-D (NCDHW) convolution and pooling.
    "Conv3D": (["x", "filter", "bias"], ["y"], True, "Convolution"),
    "Conv3DBackpropInput": (["x", "filter", "bias"], ["y"], True, "Convolution"),
    "MaxPool3D": (["x"], ["y"], None, "Opaque"),
    "AvgPool3D": (["x"], ["y"], None, "Opaque"),
    # A contraction: white like the matmuls it is computed with.
    "Einsum": (["x"], ["y"], True, "Opaque"),
    "Mod": (["x1", "x2"], ["y"], None, "Broadcast"),
    "FloorMod": (["x1", "x2"], ["y"], None, "Broadcast"),
    "ResizeBicubic": (["x"], ["y"], None, "Opaque"),
    "GridSampler2D": (["x", "grid"], ["y"], None, "Opaque"),
    "LRN": (["x"], ["y"], None, "Opaque"),
    # Built and indexed tensors (shapes and indices known at run time).
    "Fill": (["dims", "value"], ["y"], None, "Opaque"),
    "Range": (["start", "limit", "delta"], ["y"], None, "Opaque"),
    "BroadcastTo": (["x", "shape"], ["y"], None, "Broadcast"),
    "Tile": (["x"], ["y"], None, "Opaque"),
    "OneHot": (["indices", "depth", "on_value", "off_value"], ["y"], None, "Opaque"),
    "TopKV2": (["x", "k"], ["values", "indices"], None, "Opaque"),
    "Size": (["x"], ["y"], None, "Opaque"),
    # Element-indexed ops (AscendIndexOps.td): moved, not computed, except
    # Cumsum, which accumulates (black like ReduceSum).
    "GatherElements": (["x", "index"], ["y"], None, "Opaque"),
    "ScatterElements": (["data", "indices", "updates"], ["y"], None, "Opaque"),
    "GatherNd": (["x", "indices"], ["y"], None, "Opaque"),
    "TensorScatterUpdate": (["x", "indices", "updates"], ["y"], None, "Opaque"),
    "Tril": (["x", "k"], ["y"], None, "Opaque"),
    "Triu": (["x", "k"], ["y"], None, "Opaque"),
    "Cumsum": (["x", "axis"], ["y"], False, "Opaque"),
    # Data-dependent result sizes: run by the host when the graph runs.
    "NonZero": (["x"], ["y"], None, "Opaque"),
    "NonMaxSuppressionV6": (["boxes", "scores", "max_output_size", "iou_threshold",
                             "score_threshold"], ["selected_indices"], None, "Opaque"),
    # Quantization (AMCT's deploy ops). CANN's deq_scale is uint64 (the fp32
    # scale in its low 32 bits); AscendPrec passes the fp32 scales.
    "AscendQuant": (["x"], ["y"], None, "quant"),
    "AscendDequant": (["x", "deq_scale"], ["y"], None, "dequant"),
    "AscendAntiQuant": (["x"], ["y"], None, "ElemWise"),
    "ROIAlign": (["features", "rois"], ["y"], None, "Opaque"),
    # Training loss (graph_run_mode=1): a TIK kernel, fp32 scores and weights
    # with int32 targets only (tbe/impl/nll_loss.py checks exactly these).
    "NLLLoss": (["x", "target", "weight"], ["y", "total_weight"], None, "Opaque"),
    # AI CPU only: no AI Core entry is written (rows_for gives none).
    "ReverseSequence": (["x", "seq_lengths"], ["y"], None, "Opaque"),
    "MatrixDeterminant": (["x"], ["y"], None, "Opaque"),
    "LeftShift": (["x", "y"], ["z"], None, "Broadcast"),
    "RightShift": (["x", "y"], ["z"], None, "Broadcast"),
}

COMPARISONS = ["Equal", "Less", "Greater", "LessEqual", "GreaterEqual"]

DATA_MOVEMENT = ["Transpose", "ConcatV2", "Split", "StridedSlice", "Pad",
                 "DepthToSpace", "SpaceToDepth", "Tile"]
ALL_DTYPES = [FP16, FP32, I8, U8, I32, I64, BOOL]


def rows_for(soc, op):
    """Kernel rows of one op on one SoC: a list of (inputs, outputs)."""
    ins, outs, _, _ = OPS[op]
    n_in, n_out = len(ins), len(outs)

    def uniform(dtypes):
        return [([d] * n_in, [d] * n_out) for d in dtypes]

    bf = [BF16] if HAS_BF16[soc] else []
    if op in ("Conv2D", "Conv2DBackpropInput", "MatMulV2", "BatchMatMulV2",
              "Conv3D", "Conv3DBackpropInput"):
        return cube_rows(soc, n_in)
    if op == "Einsum":
        # Cube dtypes only: fp16 everywhere, fp32 and bf16 where the cube has
        # them; fp32 elsewhere falls back to AI CPU.
        return uniform([FP16] + ([FP32, BF16] if FP32_CUBE[soc] else []))
    if op in ("Mod", "FloorMod"):
        return uniform([FP16, FP32, I32] + bf)
    if op in ("Fill", "BroadcastTo", "Reshape"):
        # The dims / shape operand is int32 or int64; the data any dtype.
        rows = []
        for d in ALL_DTYPES + bf:
            for idx in (I32, I64):
                rows.append(([idx, d] if op == "Fill" else [d, idx], [d]))
        return rows
    if op == "Range":
        return uniform([FP16, FP32, I32, I64] + bf)
    if op == "OneHot":
        return [([idx, idx, d, d], [d]) for d in [FP16, FP32, I8, U8, I32] + bf
                for idx in (I32, I64)]
    if op == "TopKV2":
        return [([d, k], [d, idx]) for d in [FP16, FP32, I32] + bf
                for k in (I32, I64) for idx in (I32, I64)]
    if op == "Size":
        return [([d], [idx]) for d in ALL_DTYPES + bf for idx in (I32, I64)]
    if op in ("DynamicRNN", "DynamicGRUV2", "RNN"):
        # fp16 matrix inputs with fp16 or fp32 results everywhere; fp32 and
        # bf16 throughout where the cube has them (910B).
        # seq_length (the last input) is int32 in every row.
        rows = [([FP16] * n_in, [FP16] * n_out), ([FP16] * n_in, [FP32] * n_out)]
        if FP32_CUBE[soc]:
            rows += uniform([FP32, BF16])
        return [(ins[:-1] + [I32], outs) for ins, outs in rows]
    if op in ("Add", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "Neg",
              "Abs", "ClipByValue", "BiasAdd"):
        return uniform([FP16, FP32, I32] + bf)
    if op == "Relu":
        return uniform([FP16, FP32, I32, I8] + bf)
    if op in ("ReduceSum", "ReduceMax"):
        return uniform([FP16, FP32, I32] + bf)
    if op in ("MaxPool", "AvgPool", "MaxPool3D", "AvgPool3D"):
        # 910A/310P pooling kernels: float16 only (assumed, see README).
        return uniform([FP16] + ([FP32, BF16] if FP32_CUBE[soc] else []))
    if op in DATA_MOVEMENT:
        return uniform([FP16, FP32, I8, U8, I32, I64, BOOL] + bf)
    if op in ("GatherElements", "GatherNd"):
        return [([d, idx], [d]) for d in [FP16, FP32, I8, U8, I32, I64, BOOL] + bf
                for idx in (I32, I64)]
    if op in ("ScatterElements", "TensorScatterUpdate"):
        return [([d, idx, d], [d]) for d in [FP16, FP32, I8, U8, I32, I64, BOOL] + bf
                for idx in (I32, I64)]
    if op in ("Tril", "Triu"):
        return [([d, idx], [d]) for d in [FP16, FP32, I8, U8, I32, I64, BOOL] + bf
                for idx in (I32, I64)]
    if op == "Cumsum":
        return [([d, idx], [d]) for d in [FP16, FP32, I32, I64] + bf for idx in (I32, I64)]
    if op in ("LeftShift", "RightShift", "ReverseSequence", "MatrixDeterminant"):
        return []
    if op == "GatherV2":
        return [([d, idx], [d]) for d in [FP16, FP32, I8, U8, I32, I64, BOOL] + bf
                for idx in (I32, I64)]
    if op == "LayerNorm":
        return uniform([FP16, FP32] + bf) + [([FP16, FP32, FP32], [FP16, FP32, FP32])]
    if op == "BatchNorm":
        return [([d, FP32, FP32, FP32, FP32], [d]) for d in [FP16, FP32] + bf]
    if op == "InstanceNorm":
        return uniform([FP16, FP32] + bf)
    if op in COMPARISONS:
        return [([d, d], [BOOL]) for d in [FP16, FP32, I8, U8, I32, I64] + bf]
    if op in ("LogicalAnd", "LogicalOr", "LogicalNot"):
        return uniform([BOOL])
    if op == "Select":
        return [([BOOL, d, d], [d]) for d in [FP16, FP32, I8, U8, I32, I64] + bf]
    if op == "Shape":
        # Reads dimensions only: every dtype in, int32 or int64 out.
        return [([d], [idx]) for d in [FP16, FP32, I8, U8, I32, I64, BOOL] + bf
                for idx in (I32, I64)]
    if op in ("IsInf", "IsNan"):
        return [([d], [BOOL]) for d in [FP16, FP32] + bf]
    if op in ("ArgMaxV2", "ArgMin"):
        return [([d], [idx]) for d in [FP16, FP32, I32] + bf for idx in (I32, I64)]
    if op in ("Sign", "ReduceMin", "ReduceProd"):
        return uniform([FP16, FP32, I32] + bf)
    if op == "ROIAlign":
        return uniform([FP16, FP32])
    if op == "NLLLoss":
        return [([FP32, I32, FP32], [FP32, FP32])]
    if op == "NonZero":
        return [([d], [idx]) for d in ALL_DTYPES + bf for idx in (I64, I32)]
    if op == "NonMaxSuppressionV6":
        return [([d, d, idx, d, d], [I64]) for d in [FP16, FP32] for idx in (I64, I32)]
    if op == "AscendQuant":
        return [([FP16], [I8]), ([FP32], [I8])]
    if op == "AscendDequant":
        return [([I32, FP32], [FP16]), ([I32, FP32], [FP32])]
    if op == "AscendAntiQuant":
        return [([I8], [FP16]), ([I8], [FP32])]
    if op == "Cast":
        types = [FP16, FP32, I8, U8, I32, I64, BOOL] + bf
        return [([a], [b]) for a in types for b in types if a != b]
    # Float math and activations.
    return uniform(vector_float(soc))


# AI CPU kernels (engine DNN_VM_AICPU): op type -> dtypes, uniform rows.
AICPU_FLOAT = [FP16, FP32, F64]
AICPU = {
    "Add": AICPU_FLOAT + [I32, I64], "Sub": AICPU_FLOAT + [I32, I64],
    "Mul": AICPU_FLOAT + [I32, I64], "RealDiv": AICPU_FLOAT,
    "Maximum": AICPU_FLOAT + [I32, I64], "Minimum": AICPU_FLOAT + [I32, I64],
    "Pow": AICPU_FLOAT, "Neg": AICPU_FLOAT + [I32, I64],
    "Abs": AICPU_FLOAT + [I32, I64], "Sqrt": AICPU_FLOAT, "Rsqrt": AICPU_FLOAT,
    "Exp": AICPU_FLOAT, "Log": AICPU_FLOAT, "Erf": AICPU_FLOAT,
    "Relu": AICPU_FLOAT + [I32, I64], "Sigmoid": AICPU_FLOAT, "Tanh": AICPU_FLOAT,
    "SoftmaxV2": AICPU_FLOAT, "LogSoftmaxV2": AICPU_FLOAT,
    "ReduceSum": AICPU_FLOAT + [I32, I64], "ReduceMean": AICPU_FLOAT,
    "ReduceMax": AICPU_FLOAT + [I32, I64], "MatMulV2": AICPU_FLOAT,
    "BatchMatMulV2": AICPU_FLOAT, "Transpose": AICPU_FLOAT + [I32, I64],
    "ConcatV2": AICPU_FLOAT + [I32, I64], "Split": AICPU_FLOAT + [I32, I64],
    "StridedSlice": AICPU_FLOAT + [I32, I64], "Pad": AICPU_FLOAT + [I32, I64],
    "Reshape": AICPU_FLOAT + [I32, I64], "Einsum": AICPU_FLOAT,
    "Mod": AICPU_FLOAT + [I32, I64], "FloorMod": AICPU_FLOAT + [I32, I64],
    # With a run-time axis CANN runs Cumsum on the AI CPU (also in fp64).
    "Cumsum": AICPU_FLOAT + [I32, I64],
    # AI CPU only (no AI Core kernel): ONNX BitShift.
    "LeftShift": [U8, U16, U32, U64], "RightShift": [U8, U16, U32, U64],
    # AI CPU only: TensorFlow's ReverseSequence and MatrixDeterminant.
    "ReverseSequence": AICPU_FLOAT + [U8, I32, I64],
    "MatrixDeterminant": AICPU_FLOAT,
}

DT_NAMES = {FP16: "DT_FLOAT16", FP32: "DT_FLOAT", F64: "DT_DOUBLE",
            I32: "DT_INT32", I64: "DT_INT64", BF16: "DT_BFLOAT16", U8: "DT_UINT8",
            U16: "DT_UINT16", U32: "DT_UINT32", U64: "DT_UINT64"}

# Impl-mode lists (IM-2) and the modes each op has (all_ops_impl_mode.ini).
PRECISION_SENSITIVE = ["SoftmaxV2", "LogSoftmaxV2", "Gelu", "Tanh", "Sigmoid",
                       "Exp", "Log", "Sqrt", "Erf", "LayerNorm", "AvgPool", "Pow"]
FOR_ALL_EXTRA = ["ReduceMean", "ResizeBilinearV2"]


def all_ops_modes(soc):
    modes = {op: ["high_precision", "high_performance"]
             for op in PRECISION_SENSITIVE + FOR_ALL_EXTRA}
    modes["LayerNorm"].append("keep_fp16")
    modes["Rsqrt"] = ["high_precision"]  # an op with one mode (IM-6)
    modes["GatherV2"] = ["high_performance", "support_out_of_bound_index"]
    cube_modes = ["high_precision", "high_performance"]
    if FP32_CUBE[soc]:
        cube_modes += ["enable_float_32_execution", "enable_hi_float_32_execution"]
    for op in ("MatMulV2", "BatchMatMulV2", "Conv2D"):
        modes[op] = list(cube_modes)
    return modes


# Platform facts per SoC variant: the values of CANN 8.1.RC1's own
# platform_config/<SoC>.ini files, key for key (data/ops/README.md gives the
# source), for the keys AscendPrec reads. ai_cpu_cnt is the newer files' 6
# on the 910B family (hicann/pypto); 8.1.RC1 says 4.
def platform(soc, short, cores, vector, aicpu, memory, l2, freq, l0c, l1, ub, rates):
    soc_info = {"ai_core_cnt": cores}
    if short == "Ascend910B":
        soc_info["cube_core_cnt"] = cores
    soc_info.update({"vector_core_cnt": vector, "ai_cpu_cnt": aicpu, "memory_size": memory,
                     "l2_size": l2})
    return {
        "version": {"SoC_version": soc, "Short_SoC_version": short},
        "SoCInfo": soc_info,
        "AICoreSpec": {"cube_freq": freq, "cube_m_size": 16, "cube_n_size": 16,
                       "cube_k_size": 16, "l0_a_size": 65536, "l0_b_size": 65536,
                       "l0_c_size": l0c, "l1_size": l1, "ub_size": ub},
        "AICoreMemoryRates": rates,
    }


RATES_910 = {"ddr_rate": 32, "ddr_read_rate": 32, "ddr_write_rate": 32, "l2_rate": 110,
             "l2_read_rate": 110, "l2_write_rate": 86, "l1_to_l0_a_rate": 512,
             "l1_to_l0_b_rate": 256, "l1_to_ub_rate": 128, "l0_c_to_ub_rate": 256,
             "ub_to_l2_rate": 64, "ub_to_ddr_rate": 64, "ub_to_l1_rate": 128}
RATES_310P = {"ddr_rate": 17, "ddr_read_rate": 17, "ddr_write_rate": 17, "l2_rate": 114,
              "l2_read_rate": 114, "l2_write_rate": 114, "l1_to_l0_a_rate": 512,
              "l1_to_l0_b_rate": 256, "l1_to_ub_rate": 128, "l0_c_to_ub_rate": 512,
              "ub_to_l2_rate": 114, "ub_to_ddr_rate": 17, "ub_to_l1_rate": 256}
GIB = 1 << 30


def variants_910():
    # memory_size is empty in CANN's files for the 910 family; 32 GiB of
    # HBM2 (Linley, 2019) is filled in.
    return {name: platform(name, "Ascend910", cores, 0, 4, 32 * GIB, 33554432, freq, 262144,
                           1048576, 262144, RATES_910)
            for name, cores, freq in (("Ascend910A", 32, 1000), ("Ascend910ProA", 32, 1100),
                                      ("Ascend910ProB", 30, 1150),
                                      ("Ascend910PremiumA", 32, 1220))}


def variants_910b():
    table = (("Ascend910B1", 24, 64 * GIB, 201326592, 1850),
             ("Ascend910B2", 24, 64 * GIB, 201326592, 1800),
             ("Ascend910B2C", 24, 64 * GIB, 201326592, 1800),
             ("Ascend910B3", 20, 64 * GIB, 201326592, 1800),
             ("Ascend910B4", 20, 32 * GIB, 100663296, 1500),
             ("Ascend910B4-1", 20, 32 * GIB, 176160768, 1500))
    return {name: platform(name, "Ascend910B", cores, 2 * cores, 6, memory, l2, freq, 131072,
                           524288, 196608, RATES_910)
            for name, cores, memory, l2, freq in table}


def variants_310p():
    return {name: platform(name, "Ascend310P", cores, vector, 16 if name.endswith("3") else 8,
                           24000000000, 16777216, 1060, 262144, 1048576, 262144, RATES_310P)
            for name, cores, vector in (("Ascend310P1", 10, 8), ("Ascend310P3", 8, 7))}


PLATFORM = {"Ascend910": variants_910(), "Ascend910B": variants_910b(),
            "Ascend310P": variants_310p()}


def aicore_json(soc):
    doc = {}
    for op, (ins, outs, reduce_flag, pattern) in OPS.items():
        rows = rows_for(soc, op)
        if not rows:
            continue  # an AI CPU-only op
        entry = {}
        for i, name in enumerate(ins):
            entry[f"input{i}"] = {
                "dtype": ",".join(r[0][i] for r in rows), "name": name,
                "paramType": "optional" if name in ("bias", "k") else "required"}
        entry["op"] = {"pattern": pattern}
        for i, name in enumerate(outs):
            entry[f"output{i}"] = {"dtype": ",".join(r[1][i] for r in rows),
                                   "name": name, "paramType": "required"}
        if reduce_flag is not None:
            entry["precision_reduce"] = {"flag": "true" if reduce_flag else "false"}
        doc[op] = entry
    return doc


def aicpu_json(soc):
    doc = {}
    for op, dtypes in AICPU.items():
        ins, outs, _, _ = OPS[op]
        # Rows are read column-wise; a shape operand is int64 in every row,
        # an axis operand int32 or int64 (each data dtype with both).
        index_list = [I64] * len(dtypes)
        if "axis" in ins or "seq_lengths" in ins:
            index_list = [I32] * len(dtypes) + [I64] * len(dtypes)
            dtypes = list(dtypes) * 2
        types = ",".join(DT_NAMES[d] for d in dtypes)
        index_types = ",".join(DT_NAMES[d] for d in index_list)
        entry = {f"input{i}": {"name": n,
                               "type": index_types if n in ("shape", "axis", "seq_lengths")
                               else types}
                 for i, n in enumerate(ins)}
        entry["opInfo"] = {"engine": "DNN_VM_AICPU", "opKernelLib": "AICPUKernel",
                           "computeCost": "100", "flagAsync": "False",
                           "flagPartial": "False"}
        entry.update({f"output{i}": {"name": n, "type": types}
                      for i, n in enumerate(outs)})
        doc[op] = entry
    return doc


def ini(sections, header):
    lines = [f"# {header}", "# Generated by scripts/gen-ops-library.py; see data/ops/README.md.", ""]
    for name, values in sections.items():
        if name:
            lines.append(f"[{name}]")
        for key, value in values.items():
            lines.append(f"{key}={value}")
        lines.append("")
    return "\n".join(lines)


def files_for(soc):
    lower = soc.lower()
    out = {
        f"aic-{lower}-ops-info.json": json.dumps(aicore_json(soc), indent=4) + "\n",
        "aicpu_kernel.json": json.dumps(aicpu_json(soc), indent=4) + "\n",
    }
    for variant, sections in PLATFORM[soc].items():
        out[f"platform_config/{variant}.ini"] = ini(sections, f"Platform facts of {variant}")
    modes = all_ops_modes(soc)
    out["impl_mode/all_ops_impl_mode.ini"] = ini(
        {"": {op: ",".join(m) for op, m in sorted(modes.items())}},
        "Implementation modes each op type supports (IM-6)")
    for mode in ("high_precision", "high_performance"):
        listed = {op: mode for op in PRECISION_SENSITIVE}
        out[f"impl_mode/{mode}.ini"] = ini({"": listed}, f"Op types {mode} applies to (IM-2)")
        for_all = dict(listed)
        for_all.update({op: mode for op in FOR_ALL_EXTRA})
        out[f"impl_mode/{mode}_for_all.ini"] = ini(
            {"": for_all}, f"Op types {mode}_for_all applies to (IM-2)")
    return out


def main():
    check = "--check" in sys.argv[1:]
    root = Path(__file__).resolve().parent.parent / "data" / "ops"
    stale = []
    for soc in SOCS:
        for rel, text in files_for(soc).items():
            path = root / soc / rel
            if check:
                if not path.exists() or path.read_text() != text:
                    stale.append(str(path))
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
    if stale:
        print("gen-ops-library: stale files (run scripts/gen-ops-library.py):\n  " +
              "\n  ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
