//===- OptionTable.cpp - every CANN option AscendPrec accepts -------------===//
//
// Names, types and values from seed 004 (TF adapter session options) and the
// ATC option docs in seeds 000-002.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Policy/Options.h"

namespace ascendprec::policy {

namespace {
using T = OptionType;
const std::vector<std::string> kBinary = {"0", "1"};
constexpr bool kPass = true; // OptionSpec::passOption

std::vector<OptionSpec> buildSpecs() {
  const std::string basic = "Basic", precision = "Precision tuning",
                    implMode = "Operator implementation mode",
                    tuning = "Operator and graph compilation",
                    atc = "ATC model and input options",
                    noEffect = "Accepted for compatibility (no effect here)";
  std::vector<OptionSpec> specs = {
      {"soc_version", T::String, true, basic,
       "target SoC: Ascend910 (910A), Ascend910B[1-4], Ascend310P[1,3], ...",
       {}, "", kPass},
      {"graph_run_mode", T::Int, true, basic,
       "0: inference (default), 1: training; picks the default precision mode",
       kBinary, "PM-4", kPass},
      {"ops_info_dir", T::Directory, true, basic,
       "a directory of CANN operator-library files to use instead of the "
       "built-in library",
       {}, "OP-4", kPass},
      {"precision_mode", T::Enum, true, precision,
       "global precision mode",
       {"force_fp16", "force_fp32", "cube_fp16in_fp32out", "allow_mix_precision",
        "allow_fp32_to_fp16", "must_keep_origin_dtype",
        "allow_mix_precision_fp16", "allow_mix_precision_bf16",
        "allow_fp32_to_bf16"},
       "PM-1", kPass},
      {"precision_mode_v2", T::Enum, true, precision,
       "global precision mode, newer spelling; exclusive with precision_mode",
       {"fp16", "origin", "cube_fp16in_fp32out", "mixed_float16",
        "mixed_bfloat16", "mixed_hif8", "cube_hif8"},
       "PM-1", kPass},
      {"modify_mixlist", T::Path, true, precision,
       "JSON edits to the mixed-precision white/black/gray lists", {}, "ML-5", kPass},
      {"keep_dtype", T::Path, true, precision,
       "file of node names / OpType:: lines that keep their original dtype",
       {}, "KD-1", kPass},
      {"customize_dtypes", T::Path, true, precision,
       "file pinning input/output dtypes by node name or op type", {}, "CD-1", kPass},
      {"op_precision_mode", T::Path, true, implMode,
       ".ini of [ByOpType]/[ByNodeName] implementation modes", {}, "IM-4", kPass},
      {"op_select_implmode", T::Enum, true, implMode,
       "deprecated: use op_precision_mode",
       {"high_precision", "high_performance", "high_precision_for_all",
        "high_performance_for_all"},
       "IM-1", kPass},
      {"optypelist_for_implmode", T::String, true, implMode,
       "comma-separated op types that take op_select_implmode's mode", {},
       "IM-3", kPass},
      {"enable_scope_fusion_passes", T::String, true, tuning,
       "comma-separated non-general fusion passes to enable", {}, "FU-1", kPass},
      {"fusion_switch_file", T::Path, true, tuning,
       "JSON {\"Switch\":{\"GraphFusion\":{...},\"UBFusion\":{...}}} turning fusion "
       "passes on and off",
       {}, "FU-1", kPass},
      {"deterministic", T::Int, true, tuning,
       "1: fixed accumulation order in reductions", kBinary, "OP-3", kPass},
      {"aicore_num", T::String, true, tuning,
       "\"cube|vector\": cores the kernel tiling may use", {}, "OP-3", kPass},
      {"enable_small_channel", T::Int, true, tuning,
       "1: small-channel (<= 4) convolution lowering", kBinary, "OP-3", kPass},
      {"oo_constant_folding", T::Bool, true, tuning,
       "constant folding on/off", {}, "OP-3"},
      // ATC's own options, so that an ATC command line runs unchanged
      // (docs/reference/atc-options.md).
      {"model", T::Path, true, atc, "the model file (same as the positional MODEL)", {},
       "OP-1"},
      {"framework", T::Int, true, atc,
       "5: ONNX (the only framework read here; 0 Caffe, 1 MindSpore, 3 TensorFlow are not)",
       {}, "OP-1"},
      {"input_format", T::Enum, true, atc, "layout of the model inputs",
       {"NCHW", "NHWC", "ND", "NCDHW", "NDHWC"}, "OP-1"},
      {"input_shape", T::String, true, atc,
       "\"x:1,3,224,224;y:1,10\": input shapes, -1 for a dynamic dimension", {}, "OP-1"},
      {"dynamic_batch_size", T::String, true, atc,
       "\"1,2,4\": batch sizes for an input_shape with -1 as batch", {}, "OP-1"},
      {"dynamic_image_size", T::String, true, atc,
       "\"224,224;448,448\": H,W pairs for an input_shape with -1 as H and W", {}, "OP-1"},
      {"dynamic_dims", T::String, true, atc,
       "\"1,224;2,448\": values for every -1 of input_shape, one group per gear", {},
       "OP-1"},
      {"input_fp16_nodes", T::String, true, atc,
       "\"x;y\": model inputs fed as float16", {}, "OP-1"},
      {"output_type", T::String, true, atc,
       "FP32, FP16 or UINT8 for every output, or \"node:index:FP16;...\"", {}, "OP-1"},
      {"log", T::Enum, true, atc,
       "messages on stderr: debug, info and warning show all; error and null only errors",
       {"debug", "info", "warning", "error", "null"}, "OP-1"},
  };
  // OP-2: every other session option of seed 004.
  const std::vector<std::pair<std::string, T>> accepted = {
      {"session_device_id", T::Int},
      {"dynamic_node_type", T::Int},
      {"compile_hybrid_mode", T::Int},
      {"ac_parallel_enable", T::String},
      {"compile_dynamic_mode", T::Bool},
      {"all_tensor_not_empty", T::Bool},
      {"mix_compile_mode", T::Bool},
      {"in_out_pair_flag", T::Bool},
      {"in_out_pair", T::String},
      {"iterations_per_loop", T::Int},
      {"hcom_parallel", T::Bool},
      {"stream_max_parallel_num", T::String},
      {"is_tailing_optimization", T::Bool},
      {"variable_placement", T::String},
      {"frozen_variable", T::Bool},
      {"graph_max_parallel_model_num", T::Int},
      {"op_compiler_cache_mode", T::String},
      {"op_compiler_cache_dir", T::String},
      {"local_rank_id", T::Int},
      {"local_device_list", T::String},
      {"hccl_timeout", T::Int},
      {"op_wait_timeout", T::Int},
      {"op_execute_timeout", T::Int},
      {"stream_sync_timeout", T::Int},
      {"event_sync_timeout", T::Int},
      {"graph_compiler_cache_dir", T::String},
      {"jit_compile", T::String},
      {"shape_generalization_mode", T::String},
      {"experimental_accelerate_train_mode", T::String},
      {"auto_multistream_parallel_mode", T::String},
      {"op_debug_level", T::Int},
      {"enable_data_pre_proc", T::Bool},
      {"variable_format_optimize", T::Bool},
      {"dynamic_input", T::Bool},
      {"dynamic_graph_execute_mode", T::String},
      {"dynamic_inputs_shape_range", T::String},
      {"graph_memory_max_size", T::String},
      {"variable_memory_max_size", T::String},
  };
  for (const auto &[name, type] : accepted)
    specs.push_back({name, type, false, noEffect,
                     "session option of the TF adapter; no effect on "
                     "precision planning",
                     {}, "OP-2"});
  // Value sets the seeds document for some of them.
  for (OptionSpec &spec : specs) {
    if (spec.name == "dynamic_node_type" || spec.name == "compile_hybrid_mode")
      spec.allowedValues = kBinary;
    if (spec.name == "op_compiler_cache_mode") {
      spec.type = T::Enum;
      spec.allowedValues = {"enable", "disable", "force"};
    }
    if (spec.name == "variable_placement") {
      spec.type = T::Enum;
      spec.allowedValues = {"Device", "Host"};
    }
  }
  return specs;
}
} // namespace

const std::vector<OptionSpec> &optionSpecs() {
  static const std::vector<OptionSpec> specs = buildSpecs();
  return specs;
}

const OptionSpec *findOptionSpec(const std::string &name) {
  for (const OptionSpec &spec : optionSpecs())
    if (spec.name == name)
      return &spec;
  return nullptr;
}

} // namespace ascendprec::policy
