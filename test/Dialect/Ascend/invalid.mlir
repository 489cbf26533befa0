// Every verifier message of the `ascend` dialect.
// RUN: prec-opt %s -split-input-file -verify-diagnostics

//===--- Checks every op shares ---===//

func.func @empty_name(%x: tensor<4xf32>) {
  // expected-error @+1 {{requires a non-empty node name ('name')}}
  %0 = ascend.Relu %x {name = ""} : tensor<4xf32>
  return
}

// -----

func.func @missing_name(%x: tensor<4xf32>) {
  // expected-error @+1 {{requires attribute 'name'}}
  %0 = ascend.Relu %x : tensor<4xf32>
  return
}

// -----

func.func @precision_input_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{precision decision lists 2 input dtypes but the op has 1 operands}}
  %0 = ascend.Relu %x {name = "r", precision = #ascend.precision<origin = f32, compute = f16, inputs = [f16, f16], outputs = [f16], engine = aicore_vector, list = none, rule = "PM-5", source = "built-in">} : tensor<4xf32>
  return
}

// -----

func.func @precision_output_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{precision decision lists 0 output dtypes but the op has 1 results}}
  %0 = ascend.Relu %x {name = "r", precision = #ascend.precision<origin = f32, compute = f16, inputs = [f16], outputs = [], engine = aicore_vector, list = none, rule = "PM-5", source = "built-in">} : tensor<4xf32>
  return
}

// -----

func.func @absorbed_empty(%x: tensor<4xf32>) {
  // expected-error @+1 {{'absorbed' must not contain empty node names}}
  %0 = ascend.Relu %x {name = "r", absorbed = ["bn", ""]} : tensor<4xf32>
  return
}

// -----

func.func @unknown_impl_mode(%x: tensor<4xf32>) {
  // expected-error @+2 {{to be one of: high_precision, high_performance, enable_float_32_execution, enable_hi_float_32_execution, support_out_of_bound_index, keep_fp16, super_performance}}
  // expected-error @+1 {{failed to parse Ascend_ImplModeAttr parameter 'value'}}
  %0 = ascend.Relu %x {name = "r", impl_mode = #ascend.impl_mode<fastest>} : tensor<4xf32>
  return
}

//===--- #ascend.precision ---===//

// -----

// expected-error @+1 {{precision dtypes must be element types such as f16 or f32}}
#bad_dtype = #ascend.precision<origin = tensor<4xf32>, compute = f16, inputs = [], outputs = [], engine = aicpu, list = none, rule = "PM-9", source = "built-in">

// -----

// expected-error @+1 {{precision rule 'whitelist' is not a rule ID such as "ML-2"}}
#bad_rule = #ascend.precision<origin = f32, compute = f16, inputs = [], outputs = [], engine = aicpu, list = none, rule = "whitelist", source = "built-in">

// -----

// expected-error @+1 {{precision source must name "built-in" or the file:line}}
#no_source = #ascend.precision<origin = f32, compute = f16, inputs = [], outputs = [], engine = aicpu, list = none, rule = "PM-9", source = "">

// -----

// expected-error @+1 {{unknown engine 'gpu'; expected one of: aicore_cube, aicore_vector, aicpu}}
#bad_engine = #ascend.precision<origin = f32, compute = f16, inputs = [], outputs = [], engine = gpu, list = none, rule = "PM-9", source = "built-in">

// -----

// expected-error @+1 {{unknown list colour 'grey'; expected one of: none, white, black, gray}}
#bad_list = #ascend.precision<origin = f32, compute = f16, inputs = [], outputs = [], engine = aicpu, list = grey, rule = "PM-9", source = "built-in">

// -----

// expected-error @+1 {{expected 'compute'}}
#out_of_order = #ascend.precision<origin = f32, inputs = [], compute = f16, outputs = [], engine = aicpu, list = none, rule = "PM-9", source = "built-in">

//===--- Elementwise ---===//

// -----

func.func @unary_type_mismatch(%x: tensor<4xf32>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "ascend.Relu"(%x) {name = "r"} : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @float_only(%x: tensor<4xi32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of floating-point values}}
  %0 = ascend.Sqrt %x {name = "s"} : tensor<4xi32>
  return
}

// -----

func.func @binary_not_broadcastable(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{operands don't have broadcast-compatible shapes}}
  %0 = ascend.Add %a, %b {name = "add"} : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @binary_element_types(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %0 = ascend.Mul %a, %b {name = "mul"} : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @prelu_weight(%x: tensor<1x8x4x4xf32>, %w: tensor<3x1x1xf32>) {
  // expected-error @+1 {{expects 'weight' of type 'tensor<3x1x1xf32>' to broadcast to the input 'tensor<1x8x4x4xf32>'}}
  %0 = ascend.PRelu %x, %w {name = "p"} : (tensor<1x8x4x4xf32>, tensor<3x1x1xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @prelu_weight_rank(%x: tensor<8xf32>, %w: tensor<2x8xf32>) {
  // expected-error @+1 {{expects 'weight' of rank at most 1}}
  %0 = ascend.PRelu %x, %w {name = "p"} : (tensor<8xf32>, tensor<2x8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @clip_result_shape(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{expects result dimension 0 to be 4, got 5}}
  %0 = ascend.ClipByValue %x, %s, %s {name = "c"} : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
  return
}

// -----

func.func @clip_bound(%x: tensor<4xf32>, %s: tensor<f32>, %m: tensor<3xf32>) {
  // expected-error @+1 {{expects 'clip_value_max' of type 'tensor<3xf32>' to broadcast}}
  %0 = ascend.ClipByValue %x, %s, %m {name = "c"} : (tensor<4xf32>, tensor<f32>, tensor<3xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @clip_result_rank(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{expects result of rank 1, got rank 2}}
  %0 = ascend.ClipByValue %x, %s, %s {name = "c"} : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @bias_format(%x: tensor<1x8x4x4xf32>, %b: tensor<8xf32>) {
  // expected-error @+2 {{expected ::ascendprec::ascend::DataFormat to be one of: NCHW, NHWC}}
  // expected-error @+1 {{failed to parse Ascend_DataFormatAttr parameter 'value'}}
  %0 = ascend.BiasAdd %x, %b {name = "b", data_format = #ascend.data_format<NC1HWC0>} : (tensor<1x8x4x4xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @bias_size(%x: tensor<1x8x4x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{expects 'bias' size (the channel count) to be 8, got 4}}
  %0 = ascend.BiasAdd %x, %b {name = "b"} : (tensor<1x8x4x4xf32>, tensor<4xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @bias_input_rank(%x: tensor<8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{expects input 'x' of rank 2 or more, got rank 1}}
  %0 = ascend.BiasAdd %x, %b {name = "b"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

//===--- Convolution ---===//

// -----

func.func @conv_rank(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{expects input 'x' (NCHW) of rank 4, got rank 3}}
  %0 = ascend.Conv2D %x, %w {name = "c", strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_strides_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{expects 'strides' to have 2 entries, got 4}}
  %0 = ascend.Conv2D %x, %w {name = "c", strides = array<i64: 1, 1, 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_stride_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{expects every 'strides' entry to be positive, got 0}}
  %0 = ascend.Conv2D %x, %w {name = "c", strides = array<i64: 0, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_negative_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{expects every 'pads' entry to be non-negative, got -1}}
  %0 = ascend.Conv2D %x, %w {name = "c", strides = array<i64: 1, 1>, pads = array<i64: -1, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_groups(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{expects 'groups' >= 1, got 0}}
  %0 = ascend.Conv2D %x, %w {name = "c", strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 0} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_dtypes(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) {
  // expected-error @+1 {{expects input and filter of one element type, got 'f32' and 'f16'}}
  %0 = ascend.Conv2D %x, %w {name = "c", strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{expects input channels (3) to equal filter channels (2) times groups (1)}}
  %0 = ascend.Conv2D %x, %w {name = "c", strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_groups_divide(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{expects filter output channels (3) to be divisible by groups (2)}}
  %0 = ascend.Conv2D %x, %w {name = "c", strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2} : (tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{expects 'bias' size (output channels) to be 4, got 5}}
  %0 = ascend.Conv2D %x, %w, %b {name = "c", strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<5xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_output_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{expects result spatial size 0 to be 6, got 8}}
  %0 = ascend.Conv2D %x, %w {name = "c", strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x6xf32>
  return
}

// -----

func.func @conv_window(%x: tensor<1x3x2x2xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{filter window does not fit the padded input along spatial axis 0}}
  %0 = ascend.Conv2D %x, %w {name = "c", strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x2x2xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x1x1xf32>
  return
}

// -----

func.func @conv_batch(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{expects result batch size to be 2, got 1}}
  %0 = ascend.Conv2D %x, %w {name = "c", strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @deconv_channels(%x: tensor<1x4x4x4xf32>, %w: tensor<3x2x2x2xf32>) {
  // expected-error @+1 {{expects filter dimension 0 (input channels) to be 4, got 3}}
  %0 = ascend.Conv2DBackpropInput %x, %w {name = "d", strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>} : (tensor<1x4x4x4xf32>, tensor<3x2x2x2xf32>) -> tensor<1x2x8x8xf32>
  return
}

// -----

func.func @deconv_output_size(%x: tensor<1x4x4x4xf32>, %w: tensor<4x2x2x2xf32>) {
  // expected-error @+1 {{expects result spatial size 1 to be 9, got 8}}
  %0 = ascend.Conv2DBackpropInput %x, %w {name = "d", strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 1>} : (tensor<1x4x4x4xf32>, tensor<4x2x2x2xf32>) -> tensor<1x2x8x8xf32>
  return
}

// -----

func.func @deconv_output_padding(%x: tensor<1x4x4x4xf32>, %w: tensor<4x2x2x2xf32>) {
  // expected-error @+1 {{expects 'output_padding' to have 2 entries, got 1}}
  %0 = ascend.Conv2DBackpropInput %x, %w {name = "d", strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, output_padding = array<i64: 0>} : (tensor<1x4x4x4xf32>, tensor<4x2x2x2xf32>) -> tensor<1x2x8x8xf32>
  return
}

//===--- Matrix multiplication ---===//

// -----

func.func @matmul_rank(%a: tensor<2x4x16xf32>, %b: tensor<16x8xf32>) {
  // expected-error @+1 {{expects 'x1' of rank 2, got rank 3}}
  %0 = ascend.MatMulV2 %a, %b {name = "m"} : (tensor<2x4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @matmul_k(%a: tensor<4x16xf32>, %b: tensor<15x8xf32>) {
  // expected-error @+1 {{expects the contracted dimensions to agree, got K = 16 for x1 and K = 15 for x2}}
  %0 = ascend.MatMulV2 %a, %b {name = "m"} : (tensor<4x16xf32>, tensor<15x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @matmul_transposed_k(%a: tensor<16x4xf32>, %b: tensor<16x8xf32>) {
  // expected-error @+1 {{expects the contracted dimensions to agree, got K = 16 for x1 and K = 8 for x2}}
  %0 = ascend.MatMulV2 %a, %b {name = "m", transpose_x1 = true, transpose_x2 = true} : (tensor<16x4xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @matmul_dtypes(%a: tensor<4x16xf32>, %b: tensor<16x8xf16>) {
  // expected-error @+1 {{expects x1 and x2 of one element type, got 'f32' and 'f16'}}
  %0 = ascend.MatMulV2 %a, %b {name = "m"} : (tensor<4x16xf32>, tensor<16x8xf16>) -> tensor<4x8xf32>
  return
}

// -----

func.func @matmul_result(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) {
  // expected-error @+1 {{expects result columns (N) to be 8, got 7}}
  %0 = ascend.MatMulV2 %a, %b {name = "m"} : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x7xf32>
  return
}

// -----

func.func @matmul_bias(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{expects 'bias' size (N) to be 8, got 4}}
  %0 = ascend.MatMulV2 %a, %b, %c {name = "m"} : (tensor<4x16xf32>, tensor<16x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @bmm_batch(%a: tensor<2x4x16xf32>, %b: tensor<3x16x8xf32>) {
  // expected-error @+1 {{expects broadcastable batch dimensions}}
  %0 = ascend.BatchMatMulV2 %a, %b {name = "m"} : (tensor<2x4x16xf32>, tensor<3x16x8xf32>) -> tensor<2x4x8xf32>
  return
}

// -----

func.func @bmm_result_batch(%a: tensor<2x4x16xf32>, %b: tensor<16x8xf32>) {
  // expected-error @+1 {{expects result batch dimension 0 to be 2, got 3}}
  %0 = ascend.BatchMatMulV2 %a, %b {name = "m"} : (tensor<2x4x16xf32>, tensor<16x8xf32>) -> tensor<3x4x8xf32>
  return
}

// -----

func.func @bmm_min_rank(%a: tensor<16xf32>, %b: tensor<16x8xf32>) {
  // expected-error @+1 {{expects 'x1' of rank 2 or more, got rank 1}}
  %0 = ascend.BatchMatMulV2 %a, %b {name = "m"} : (tensor<16xf32>, tensor<16x8xf32>) -> tensor<8xf32>
  return
}

//===--- Softmax and normalization ---===//

// -----

func.func @softmax_no_axes(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{expects at least one axis in 'axes'}}
  %0 = ascend.SoftmaxV2 %x {name = "s", axes = array<i64>} : tensor<2x8xf32>
  return
}

// -----

func.func @softmax_axis_range(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'axes' value 2 is out of range [-2, 2) for rank 2}}
  %0 = ascend.LogSoftmaxV2 %x {name = "s", axes = array<i64: 2>} : tensor<2x8xf32>
  return
}

// -----

func.func @softmax_axis_twice(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'axes' names dimension 1 twice}}
  %0 = ascend.SoftmaxV2 %x {name = "s", axes = array<i64: 1, -1>} : tensor<2x8xf32>
  return
}

// -----

func.func @layernorm_axis(%x: tensor<2x8xf32>, %p: tensor<8xf32>) {
  // expected-error @+1 {{'begin_norm_axis' value -3 is out of range [-2, 2) for rank 2}}
  %y:3 = ascend.LayerNorm %x, %p, %p {name = "ln", begin_norm_axis = -3 : i64, begin_params_axis = -1 : i64} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  return
}

// -----

func.func @layernorm_gamma_rank(%x: tensor<2x8xf32>, %p: tensor<2x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{expects 'gamma' of rank 1 (x's dimensions from begin_params_axis), got rank 2}}
  %y:3 = ascend.LayerNorm %x, %p, %b {name = "ln", begin_norm_axis = -1 : i64, begin_params_axis = -1 : i64} : (tensor<2x8xf32>, tensor<2x8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  return
}

// -----

func.func @layernorm_beta_size(%x: tensor<2x8xf32>, %p: tensor<8xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{expects 'beta' dimension 0 to be 8, got 4}}
  %y:3 = ascend.LayerNorm %x, %p, %b {name = "ln", begin_norm_axis = -1 : i64, begin_params_axis = -1 : i64} : (tensor<2x8xf32>, tensor<8xf32>, tensor<4xf32>) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  return
}

// -----

func.func @layernorm_result(%x: tensor<2x8xf32>, %p: tensor<8xf32>) {
  // expected-error @+1 {{expects result 'y' of the input's type 'tensor<2x8xf32>', got 'tensor<2x8xf16>'}}
  %y:3 = ascend.LayerNorm %x, %p, %p {name = "ln", begin_norm_axis = -1 : i64, begin_params_axis = -1 : i64} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x8xf16>, tensor<2x1xf32>, tensor<2x1xf32>)
  return
}

// -----

func.func @layernorm_mean(%x: tensor<2x8xf32>, %p: tensor<8xf32>) {
  // expected-error @+1 {{expects 'mean' dimension 1 to be 1, got 8}}
  %y:3 = ascend.LayerNorm %x, %p, %p {name = "ln", begin_norm_axis = -1 : i64, begin_params_axis = -1 : i64} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x1xf32>)
  return
}

// -----

func.func @layernorm_variance_rank(%x: tensor<2x8xf32>, %p: tensor<8xf32>) {
  // expected-error @+1 {{expects 'variance' of rank 2, got rank 1}}
  %y:3 = ascend.LayerNorm %x, %p, %p {name = "ln", begin_norm_axis = -1 : i64, begin_params_axis = -1 : i64} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2xf32>)
  return
}

// -----

func.func @batchnorm_param(%x: tensor<1x4x8x8xf32>, %c: tensor<4xf32>, %bad: tensor<3xf32>) {
  // expected-error @+1 {{expects 'variance' size (channels) to be 4, got 3}}
  %0 = ascend.BatchNorm %x, %c, %c, %c, %bad {name = "bn"} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @batchnorm_result(%x: tensor<1x4x8x8xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{expects result of the input's type 'tensor<1x4x8x8xf32>', got 'tensor<1x4x8x7xf32>'}}
  %0 = ascend.BatchNorm %x, %c, %c, %c, %c {name = "bn"} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x7xf32>
  return
}

// -----

func.func @batchnorm_rank(%x: tensor<4xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{expects input 'x' of rank 2 or more, got rank 1}}
  %0 = ascend.BatchNorm %x, %c, %c, %c, %c {name = "bn"} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @instancenorm_gamma(%x: tensor<1x4x8x8xf32>, %c: tensor<4x1xf32>) {
  // expected-error @+1 {{expects 'gamma' of rank 1, got rank 2}}
  %y:3 = ascend.InstanceNorm %x, %c, %c {name = "in"} : (tensor<1x4x8x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>)
  return
}

// -----

func.func @instancenorm_result(%x: tensor<1x4x8x8xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{expects result 'y' of the input's type}}
  %y:3 = ascend.InstanceNorm %x, %c, %c {name = "in"} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<1x4x8x8xbf16>, tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>)
  return
}

// -----

func.func @instancenorm_mean(%x: tensor<1x4x8x8xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{expects 'mean' dimension 2 to be 1, got 8}}
  %y:3 = ascend.InstanceNorm %x, %c, %c {name = "in"} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>, tensor<1x4x1x1xf32>)
  return
}

//===--- Reductions and pooling ---===//

// -----

func.func @reduce_rank(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{expects a result of rank 1 (keep_dims = false), got rank 2}}
  %0 = ascend.ReduceSum %x {name = "r", axes = array<i64: 1>} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @reduce_dims(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{expects result dimension 0 to be 8, got 2}}
  %0 = ascend.ReduceMax %x {name = "r", axes = array<i64: 0>} : (tensor<2x8xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_axis(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'axes' value -3 is out of range [-2, 2) for rank 2}}
  %0 = ascend.ReduceMean %x {name = "r", axes = array<i64: -3>} : (tensor<2x8xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @pool_ksize(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{expects every 'ksize' entry to be positive, got 0}}
  %0 = ascend.MaxPool %x {name = "p", ksize = array<i64: 0, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @pool_output(%x: tensor<1x4x7x7xf32>) {
  // expected-error @+1 {{expects result spatial size 0 to be 3, got 4}}
  %0 = ascend.MaxPool %x {name = "p", ksize = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x4x7x7xf32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @pool_window(%x: tensor<1x4x2x2xf32>) {
  // expected-error @+1 {{pooling window does not fit the padded input along spatial axis 0}}
  %0 = ascend.AvgPool %x {name = "p", ksize = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x4x2x2xf32>) -> tensor<1x4x1x1xf32>
  return
}

// -----

func.func @pool_global(%x: tensor<1x4x7x7xf32>) {
  // expected-error @+1 {{expects result spatial size 1 to be 1, got 7}}
  %0 = ascend.AvgPool %x {name = "p", ksize = array<i64: 1, 1>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, global_pooling = true} : (tensor<1x4x7x7xf32>) -> tensor<1x4x1x7xf32>
  return
}

// -----

func.func @pool_channels(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{expects result dimension 1 to be 4, got 3}}
  %0 = ascend.MaxPool %x {name = "p", ksize = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x4x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

//===--- Data movement ---===//

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{cannot reshape 6 elements 'tensor<2x3xf32>' into 8 elements 'tensor<2x4xf32>'}}
  %0 = ascend.Reshape %x {name = "r"} : tensor<2x3xf32> to tensor<2x4xf32>
  return
}

// -----

func.func @transpose_perm(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{expects 'perm' to be a permutation of [0, 2), got 0 out of place}}
  %0 = ascend.Transpose %x {name = "t", perm = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @transpose_perm_size(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{expects 'perm' to have 2 entries, got 3}}
  %0 = ascend.Transpose %x {name = "t", perm = array<i64: 0, 1, 2>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{expects result dimension 0 to be 3, got 2}}
  %0 = ascend.Transpose %x {name = "t", perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @concat_empty() {
  // expected-error @+1 {{expected 1 or more operands, but found 0}}
  %0 = "ascend.ConcatV2"() {name = "c", concat_dim = 0 : i64} : () -> tensor<2xf32>
  return
}

// -----

func.func @concat_sum(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{expects the input sizes along axis 1 to add up to 7, got 6}}
  %0 = ascend.ConcatV2 %a, %a {name = "c", concat_dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x7xf32>
  return
}

// -----

func.func @concat_other_dim(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>) {
  // expected-error @+1 {{expects input #1 dimension 0 to be 2, got 3}}
  %0 = ascend.ConcatV2 %a, %b {name = "c", concat_dim = 1 : i64} : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<6xf32>) {
  // expected-error @+1 {{expects every input of rank 2, got rank 1 for input #1}}
  %0 = ascend.ConcatV2 %a, %b {name = "c", concat_dim = 1 : i64} : (tensor<2x3xf32>, tensor<6xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @split_sum(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{expects the result sizes along axis 1 to add up to 8, got 7}}
  %0:2 = ascend.Split %x {name = "s", axis = 1 : i64} : (tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @split_none(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{expects at least one result}}
  ascend.Split %x {name = "s", axis = 1 : i64} : (tensor<2x8xf32>) -> ()
  return
}

// -----

func.func @slice_stride(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{expects non-zero 'strides', got 0 for dimension 1}}
  %0 = ascend.StridedSlice %x {name = "s", begin = array<i64: 0, 0>, end = array<i64: 2, 8>, strides = array<i64: 1, 0>} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @slice_size(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{expects result dimension 1 to be 4, got 3}}
  %0 = ascend.StridedSlice %x {name = "s", begin = array<i64: 0, 1>, end = array<i64: 2, 8>, strides = array<i64: 1, 2>} : (tensor<2x8xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @slice_arity(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{expects 'begin' to have 2 entries, got 1}}
  %0 = ascend.StridedSlice %x {name = "s", begin = array<i64: 0>, end = array<i64: 2, 8>, strides = array<i64: 1, 1>} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @gather_batch_dims(%t: tensor<4x16xf32>, %i: tensor<4xi32>) {
  // expected-error @+1 {{expects 0 <= 'batch_dims' <= min(axis, indices rank), got 1}}
  %0 = ascend.GatherV2 %t, %i {name = "g", axis = 0 : i64, batch_dims = 1 : i64} : (tensor<4x16xf32>, tensor<4xi32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @gather_rank(%t: tensor<100x16xf32>, %i: tensor<4x7xi64>) {
  // expected-error @+1 {{expects a result of rank 3, got rank 2}}
  %0 = ascend.GatherV2 %t, %i {name = "g", axis = 0 : i64} : (tensor<100x16xf32>, tensor<4x7xi64>) -> tensor<28x16xf32>
  return
}

// -----

func.func @gather_dtype(%t: tensor<100x16xf32>, %i: tensor<4xi64>) {
  // expected-error @+1 {{expects a result of the input's element type 'f32', got 'f16'}}
  %0 = ascend.GatherV2 %t, %i {name = "g", axis = 0 : i64} : (tensor<100x16xf32>, tensor<4xi64>) -> tensor<4x16xf16>
  return
}

// -----

func.func @gather_index_type(%t: tensor<100x16xf32>, %i: tensor<4xf32>) {
  // expected-error @+1 {{operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = ascend.GatherV2 %t, %i {name = "g", axis = 0 : i64} : (tensor<100x16xf32>, tensor<4xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @pad_mode(%x: tensor<2x4xf32>) {
  // A string where the enum belongs (the spelling before the enum attribute).
  // expected-error @+1 {{attribute 'mode' failed to satisfy constraint: padding mode}}
  %0 = ascend.Pad %x {name = "p", paddings = array<i64: 0, 0, 1, 1>, mode = "reflect"} : (tensor<2x4xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @pad_crop(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{paddings crop dimension 1 below zero elements}}
  %0 = ascend.Pad %x {name = "p", paddings = array<i64: 0, 0, -3, -3>} : (tensor<2x4xf32>) -> tensor<2x0xf32>
  return
}

// -----

func.func @pad_result(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{expects result dimension 1 to be 7, got 6}}
  %0 = ascend.Pad %x {name = "p", paddings = array<i64: 0, 0, 1, 2>} : (tensor<2x4xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @resize_flags(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{'align_corners' and 'half_pixel_centers' cannot both be set}}
  %0 = ascend.ResizeBilinearV2 %x {name = "r", size = array<i64: 16, 16>, align_corners = true, half_pixel_centers = true} : (tensor<1x4x8x8xf32>) -> tensor<1x4x16x16xf32>
  return
}

// -----

func.func @resize_size(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{expects result dimension 3 to be 16, got 15}}
  %0 = ascend.ResizeNearestNeighborV2 %x {name = "r", size = array<i64: 16, 16>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x16x15xf32>
  return
}

// -----

func.func @resize_size_and_scales(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{expects exactly one of 'size' and 'scales'}}
  %0 = ascend.ResizeNearestNeighborV2 %x {name = "r", size = array<i64: 16, 16>, scales = array<f32: 2.0, 2.0>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x16x16xf32>
  return
}

// -----

func.func @resize_scales_positive(%x: tensor<1x4x?x?xf32>) {
  // expected-error @+1 {{expects 'scales' to hold two positive factors}}
  %0 = ascend.ResizeBilinearV2 %x {name = "r", scales = array<f32: 2.0, 0.0>} : (tensor<1x4x?x?xf32>) -> tensor<1x4x?x?xf32>
  return
}

// -----

func.func @resize_scales_result(%x: tensor<1x4x8x?xf32>) {
  // expected-error @+1 {{expects result dimension 2 to be 12, got 16}}
  %0 = ascend.ResizeBilinearV2 %x {name = "r", scales = array<f32: 1.5, 2.0>} : (tensor<1x4x8x?xf32>) -> tensor<1x4x16x?xf32>
  return
}

// -----

func.func @cast_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %0 = ascend.Cast %x {name = "c"} : tensor<4xf32> to tensor<5xf16>
  return
}

//===--- Generic op ---===//

// -----

func.func @generic_bad_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{expects an Ascend IR op type (a letter, then letters, digits or '_'), got 'my op'}}
  %0 = ascend.generic "my op"(%x) {name = "g"} : (tensor<4xf32>) -> tensor<4xf32>
  return
}


// -----

func.func @select_types(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{expects x1, x2 and y of one element type}}
  %0 = ascend.Select %c, %a, %b {name = "s"} : (tensor<4xi1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @compare_types(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{requires the same element type for all operands}}
  %0 = ascend.Equal %a, %b {name = "eq"} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

//===--- Recurrent layers ---===//

func.func @rnn_direction(%x: tensor<5x2x4xf32>, %w: tensor<1x8x4xf32>, %r: tensor<1x8x8xf32>) {
  // expected-error @+2 {{expected ::ascendprec::ascend::RnnDirection to be one of: forward, reverse, bidirectional}}
  // expected-error @+1 {{failed to parse Ascend_RnnDirectionAttr parameter 'value'}}
  %y, %h = ascend.RNN %x, %w, %r {name = "rnn", hidden_size = 8 : i64, direction = #ascend.rnn_direction<sideways>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>}
      : (tensor<5x2x4xf32>, tensor<1x8x4xf32>, tensor<1x8x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @lstm_gate_rows(%x: tensor<5x2x4xf32>, %w: tensor<1x24x4xf32>, %r: tensor<1x32x8xf32>) {
  // expected-error @+1 {{expects w dimension 1 to be 32, got 24}}
  %y, %h, %c = ascend.DynamicRNN %x, %w, %r {name = "lstm", hidden_size = 8 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}
      : (tensor<5x2x4xf32>, tensor<1x24x4xf32>, tensor<1x32x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @gru_bidirectional_weights(%x: tensor<5x2x4xf32>, %w: tensor<1x24x4xf32>, %r: tensor<1x24x8xf32>) {
  // expected-error @+1 {{expects w dimension 0 to be 2, got 1}}
  %y, %h = ascend.DynamicGRUV2 %x, %w, %r {name = "gru", hidden_size = 8 : i64, direction = #ascend.rnn_direction<bidirectional>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>}
      : (tensor<5x2x4xf32>, tensor<1x24x4xf32>, tensor<1x24x8xf32>) -> (tensor<5x2x2x8xf32>, tensor<2x2x8xf32>)
  return
}

// -----

func.func @rnn_input_size(%x: tensor<5x2x4xf32>, %w: tensor<1x8x3xf32>, %r: tensor<1x8x8xf32>) {
  // expected-error @+1 {{expects w dimension 2 to be 4, got 3}}
  %y, %h = ascend.RNN %x, %w, %r {name = "rnn", hidden_size = 8 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>}
      : (tensor<5x2x4xf32>, tensor<1x8x3xf32>, tensor<1x8x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

// seq_length (ONNX's sequence_lens) is last; the kernel rows are
// positional, so the bias and initial state come with it.
func.func @rnn_seq_length_without_state(%x: tensor<5x2x4xf32>, %w: tensor<1x8x4xf32>, %r: tensor<1x8x8xf32>, %lens: tensor<2xi32>) {
  // expected-error @+1 {{has seq_length, so expects b and the initial states (zeros when the model has none)}}
  %y, %h = ascend.RNN %x, %w, %r, %lens {name = "rnn", hidden_size = 8 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>}
      : (tensor<5x2x4xf32>, tensor<1x8x4xf32>, tensor<1x8x8xf32>, tensor<2xi32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @rnn_seq_length_per_row(%x: tensor<5x2x4xf32>, %w: tensor<1x8x4xf32>, %r: tensor<1x8x8xf32>, %b: tensor<1x16xf32>, %h0: tensor<1x2x8xf32>, %lens: tensor<3xi32>) {
  // expected-error @+1 {{expects seq_length dimension 0 to be 2, got 3}}
  %y, %h = ascend.RNN %x, %w, %r, %b, %h0, %lens {name = "rnn", hidden_size = 8 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>}
      : (tensor<5x2x4xf32>, tensor<1x8x4xf32>, tensor<1x8x8xf32>, tensor<1x16xf32>, tensor<1x2x8xf32>, tensor<3xi32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @depth_to_space_channels(%x: tensor<1x6x2x2xf32>) {
  // expected-error @+1 {{expects the channels (6) to be a multiple of block_size^2 (4)}}
  %y = ascend.DepthToSpace %x {name = "d2s", block_size = 2 : i64} : (tensor<1x6x2x2xf32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @space_to_depth_result(%x: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{result dimension 1}}
  %y = ascend.SpaceToDepth %x {name = "s2d", block_size = 2 : i64} : (tensor<1x2x4x4xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

func.func @argmax_axis(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{axes}}
  %y = ascend.ArgMaxV2 %x {name = "am", axis = 2 : i64} : (tensor<2x8xf32>) -> tensor<2xi64>
  return
}

// -----

func.func @shape_length(%x: tensor<?x3xf32>) {
  // expected-error @+1 {{result dimension 0}}
  %s = ascend.Shape %x {name = "s"} : (tensor<?x3xf32>) -> tensor<3xi64>
  return
}
