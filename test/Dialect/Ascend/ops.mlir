// Round trip of every `ascend` op, in custom and in generic form.
// RUN: prec-opt %s | prec-opt | FileCheck %s
// RUN: prec-opt %s --mlir-print-op-generic | prec-opt | FileCheck %s

// CHECK-LABEL: func.func @cube_ops
func.func @cube_ops(%x: tensor<1x3x8x8xf32>, %a: tensor<4x16xf32>,
                    %q: tensor<2x4x16xf16>, %k: tensor<4x16xf16>,
                    %d: tensor<1x4x4x4xf32>) {
  // CHECK: %[[W:.*]] = ascend.Const dense<5.000000e-01> : tensor<4x3x3x3xf32> {name = "conv1.weight"}
  %w = ascend.Const dense<0.5> : tensor<4x3x3x3xf32> {name = "conv1.weight"}
  %b = ascend.Const dense<0.0> : tensor<4xf32> {name = "conv1.bias"}
  // CHECK: ascend.Conv2D %{{.*}}, %[[W]], %{{.*}} {dilations = array<i64: 1, 1>, name = "conv1", pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}
  %c = ascend.Conv2D %x, %w, %b {name = "conv1", strides = array<i64: 1, 1>,
      pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  // Strided, grouped, dilated, no bias.
  %gw = ascend.Const dense<1.0> : tensor<6x1x3x3xf32> {name = "dw.weight"}
  %x6 = ascend.Const dense<1.0> : tensor<1x6x9x9xf32> {name = "x6"}
  // CHECK: ascend.Conv2D {{.*}}groups = 6 : i64, name = "dw"{{.*}} -> tensor<1x6x3x3xf32>
  %g = ascend.Conv2D %x6, %gw {name = "dw", strides = array<i64: 2, 2>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 2, 2>, groups = 6}
      : (tensor<1x6x9x9xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x3x3xf32>
  %dw = ascend.Const dense<1.0> : tensor<4x2x2x2xf32> {name = "deconv.weight"}
  // CHECK: ascend.Conv2DBackpropInput {{.*}}output_padding = array<i64: 0, 0>{{.*}} -> tensor<1x2x8x8xf32>
  %t = ascend.Conv2DBackpropInput %d, %dw {name = "deconv", strides = array<i64: 2, 2>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>,
      output_padding = array<i64: 0, 0>}
      : (tensor<1x4x4x4xf32>, tensor<4x2x2x2xf32>) -> tensor<1x2x8x8xf32>
  %mw = ascend.Const dense<1.0> : tensor<8x16xf32> {name = "fc.weight"}
  // CHECK: ascend.MatMulV2 {{.*}}{name = "fc", transpose_x2 = true} : (tensor<4x16xf32>, tensor<8x16xf32>) -> tensor<4x8xf32>
  %m = ascend.MatMulV2 %a, %mw {name = "fc", transpose_x2 = true}
      : (tensor<4x16xf32>, tensor<8x16xf32>) -> tensor<4x8xf32>
  // CHECK: ascend.BatchMatMulV2 {{.*}}{adj_x2 = true, name = "scores"} : (tensor<2x4x16xf16>, tensor<4x16xf16>) -> tensor<2x4x4xf16>
  %s = ascend.BatchMatMulV2 %q, %k {name = "scores", adj_x2 = true}
      : (tensor<2x4x16xf16>, tensor<4x16xf16>) -> tensor<2x4x4xf16>
  return
}

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%x: tensor<2x8xf32>, %v: tensor<8xf32>, %i: tensor<2x8xi32>,
                       %s: tensor<f32>) {
  // CHECK: ascend.Add %{{.*}}, %{{.*}} {name = "add"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %0 = ascend.Add %x, %v {name = "add"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  // CHECK: ascend.Sub
  %1 = ascend.Sub %x, %x {name = "sub"} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: ascend.Mul {{.*}} : (tensor<2x8xi32>, tensor<2x8xi32>) -> tensor<2x8xi32>
  %2 = ascend.Mul %i, %i {name = "mul"} : (tensor<2x8xi32>, tensor<2x8xi32>) -> tensor<2x8xi32>
  // CHECK: ascend.RealDiv
  %3 = ascend.RealDiv %x, %s {name = "div"} : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  // CHECK: ascend.Maximum
  %4 = ascend.Maximum %x, %x {name = "max"} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: ascend.Minimum
  %5 = ascend.Minimum %x, %x {name = "min"} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: ascend.Pow
  %6 = ascend.Pow %x, %s {name = "pow"} : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  // CHECK: ascend.Neg %{{.*}} {name = "neg"} : tensor<2x8xi32>
  %7 = ascend.Neg %i {name = "neg"} : tensor<2x8xi32>
  // CHECK: ascend.Abs
  %8 = ascend.Abs %x {name = "abs"} : tensor<2x8xf32>
  // CHECK: ascend.Sqrt
  %9 = ascend.Sqrt %x {name = "sqrt"} : tensor<2x8xf32>
  // CHECK: ascend.Rsqrt
  %10 = ascend.Rsqrt %x {name = "rsqrt"} : tensor<2x8xf32>
  // CHECK: ascend.Exp
  %11 = ascend.Exp %x {name = "exp"} : tensor<2x8xf32>
  // CHECK: ascend.Log
  %12 = ascend.Log %x {name = "log"} : tensor<2x8xf32>
  // CHECK: ascend.Erf
  %13 = ascend.Erf %x {name = "erf"} : tensor<2x8xf32>
  // CHECK: ascend.Relu %{{.*}} {impl_mode = #ascend.impl_mode<high_performance>, name = "relu"}
  %14 = ascend.Relu %x {name = "relu", impl_mode = #ascend.impl_mode<high_performance>} : tensor<2x8xf32>
  // CHECK: ascend.Gelu
  %15 = ascend.Gelu %x {name = "gelu"} : tensor<2x8xf32>
  // CHECK: ascend.Sigmoid
  %16 = ascend.Sigmoid %x {name = "sigmoid"} : tensor<2x8xf32>
  // CHECK: ascend.Tanh
  %17 = ascend.Tanh %x {name = "tanh"} : tensor<2x8xf32>
  // CHECK: ascend.LeakyRelu %{{.*}} {name = "lrelu", negative_slope = 0.00999999977 : f32}
  %18 = ascend.LeakyRelu %x {name = "lrelu", negative_slope = 0.01 : f32} : tensor<2x8xf32>
  // CHECK: ascend.HardSigmoid %{{.*}} {alpha = 2.000000e-01 : f32, name = "hsig"}
  %19 = ascend.HardSigmoid %x {name = "hsig", alpha = 0.2 : f32} : tensor<2x8xf32>
  // CHECK: ascend.PRelu
  %20 = ascend.PRelu %x, %v {name = "prelu"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  // CHECK: ascend.ClipByValue
  %21 = ascend.ClipByValue %x, %s, %s {name = "clip"} : (tensor<2x8xf32>, tensor<f32>, tensor<f32>) -> tensor<2x8xf32>
  // CHECK: ascend.BiasAdd {{.*}} {data_format = #ascend.data_format<NHWC>, name = "bias"}
  %22 = ascend.BiasAdd %x, %v {name = "bias", data_format = #ascend.data_format<NHWC>} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return
}

// CHECK-LABEL: func.func @normalization
func.func @normalization(%x: tensor<2x8xf32>, %p: tensor<8xf32>,
                         %img: tensor<1x4x8x8xf16>, %c: tensor<4xf16>) {
  // CHECK: ascend.SoftmaxV2 %{{.*}} {axes = array<i64: -1>, name = "sm"} : tensor<2x8xf32>
  %0 = ascend.SoftmaxV2 %x {name = "sm", axes = array<i64: -1>} : tensor<2x8xf32>
  // CHECK: ascend.LogSoftmaxV2
  %1 = ascend.LogSoftmaxV2 %x {name = "lsm", axes = array<i64: 1>} : tensor<2x8xf32>
  // CHECK: %y, %mean, %variance = ascend.LayerNorm {{.*}} -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  %y, %mean, %var = ascend.LayerNorm %x, %p, %p {name = "ln", begin_norm_axis = -1 : i64,
      begin_params_axis = -1 : i64, epsilon = 1.0e-6 : f32}
      : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>)
      -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  // CHECK: ascend.BatchNorm
  %2 = ascend.BatchNorm %img, %c, %c, %c, %c {name = "bn"}
      : (tensor<1x4x8x8xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>)
      -> tensor<1x4x8x8xf16>
  // CHECK: ascend.InstanceNorm
  %3:3 = ascend.InstanceNorm %img, %c, %c {name = "in"}
      : (tensor<1x4x8x8xf16>, tensor<4xf16>, tensor<4xf16>)
      -> (tensor<1x4x8x8xf16>, tensor<1x4x1x1xf16>, tensor<1x4x1x1xf16>)
  return
}

// CHECK-LABEL: func.func @reduce_and_pool
func.func @reduce_and_pool(%x: tensor<2x8xf32>, %img: tensor<1x4x7x7xf32>) {
  // CHECK: ascend.ReduceSum {{.*}} -> tensor<2xf32>
  %0 = ascend.ReduceSum %x {name = "sum", axes = array<i64: 1>} : (tensor<2x8xf32>) -> tensor<2xf32>
  // CHECK: ascend.ReduceMean {{.*}}keep_dims = true{{.*}} -> tensor<2x1xf32>
  %1 = ascend.ReduceMean %x {name = "mean", axes = array<i64: -1>, keep_dims = true} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  // Empty axes reduce every dimension.
  // CHECK: ascend.ReduceMax {{.*}} -> tensor<f32>
  %2 = ascend.ReduceMax %x {name = "max", axes = array<i64>} : (tensor<2x8xf32>) -> tensor<f32>
  // CHECK: ascend.MaxPool {{.*}}ceil_mode = true{{.*}} -> tensor<1x4x4x4xf32>
  %3 = ascend.MaxPool %img {name = "pool", ksize = array<i64: 2, 2>, strides = array<i64: 2, 2>,
      pads = array<i64: 0, 0, 0, 0>, ceil_mode = true} : (tensor<1x4x7x7xf32>) -> tensor<1x4x4x4xf32>
  // CHECK: ascend.AvgPool {{.*}}exclusive = false{{.*}} -> tensor<1x4x7x7xf32>
  %4 = ascend.AvgPool %img {name = "avg", ksize = array<i64: 3, 3>, strides = array<i64: 1, 1>,
      pads = array<i64: 1, 1, 1, 1>, exclusive = false} : (tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  // CHECK: ascend.AvgPool {{.*}}global_pooling = true{{.*}} -> tensor<1x4x1x1xf32>
  %5 = ascend.AvgPool %img {name = "gap", ksize = array<i64: 1, 1>, strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, global_pooling = true} : (tensor<1x4x7x7xf32>) -> tensor<1x4x1x1xf32>
  return
}

// CHECK-LABEL: func.func @data_movement
func.func @data_movement(%x: tensor<2x3x4xf32>, %t: tensor<100x16xf32>,
                         %ids: tensor<4x7xi64>, %img: tensor<1x4x8x8xf32>,
                         %dyn: tensor<?x8xf32>) {
  // CHECK: ascend.Reshape %{{.*}} {name = "flat"} : tensor<2x3x4xf32> to tensor<2x12xf32>
  %0 = ascend.Reshape %x {name = "flat"} : tensor<2x3x4xf32> to tensor<2x12xf32>
  // CHECK: ascend.Transpose {{.*}}perm = array<i64: 2, 0, 1>{{.*}} -> tensor<4x2x3xf32>
  %1 = ascend.Transpose %x {name = "t", perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  // CHECK: ascend.ConcatV2 {{.*}} -> tensor<2x6x4xf32>
  %2 = ascend.ConcatV2 %x, %x {name = "cat", concat_dim = 1 : i64}
      : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
  // CHECK: ascend.Split {{.*}} -> (tensor<2x3x1xf32>, tensor<2x3x3xf32>)
  %3:2 = ascend.Split %x {name = "split", axis = -1 : i64}
      : (tensor<2x3x4xf32>) -> (tensor<2x3x1xf32>, tensor<2x3x3xf32>)
  // CHECK: ascend.StridedSlice {{.*}} -> tensor<2x2x2xf32>
  %4 = ascend.StridedSlice %x {name = "slice", begin = array<i64: 0, 1, 0>,
      end = array<i64: 2, 3, 4>, strides = array<i64: 1, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x2x2xf32>
  // A reversing slice with an end past the start.
  // CHECK: ascend.StridedSlice {{.*}} -> tensor<2x3x4xf32>
  %5 = ascend.StridedSlice %x {name = "rev", begin = array<i64: 0, 0, -1>,
      end = array<i64: 2, 3, -9223372036854775807>, strides = array<i64: 1, 1, -1>}
      : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: ascend.GatherV2 {{.*}} -> tensor<4x7x16xf32>
  %6 = ascend.GatherV2 %t, %ids {name = "embed", axis = 0 : i64}
      : (tensor<100x16xf32>, tensor<4x7xi64>) -> tensor<4x7x16xf32>
  // CHECK: ascend.Pad {{.*}}mode = #ascend.pad_mode<reflect>{{.*}} -> tensor<2x5x7xf32>
  %7 = ascend.Pad %x {name = "pad", paddings = array<i64: 0, 0, 1, 1, 2, 1>, mode = #ascend.pad_mode<reflect>}
      : (tensor<2x3x4xf32>) -> tensor<2x5x7xf32>
  // CHECK: ascend.ResizeNearestNeighborV2 {{.*}} -> tensor<1x4x16x16xf32>
  %8 = ascend.ResizeNearestNeighborV2 %img {name = "up", size = array<i64: 16, 16>}
      : (tensor<1x4x8x8xf32>) -> tensor<1x4x16x16xf32>
  // CHECK: ascend.ResizeBilinearV2 {{.*}}half_pixel_centers = true{{.*}} -> tensor<1x4x4x4xf32>
  %9 = ascend.ResizeBilinearV2 %img {name = "down", size = array<i64: 4, 4>, half_pixel_centers = true}
      : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  // CHECK: ascend.Cast %{{.*}} {name = "cast"} : tensor<?x8xf32> to tensor<?x8xbf16>
  %10 = ascend.Cast %dyn {name = "cast"} : tensor<?x8xf32> to tensor<?x8xbf16>
  // Dynamic dimensions are accepted wherever shapes are checked.
  // CHECK: ascend.Reshape %{{.*}} : tensor<?x8xf32> to tensor<?x2x4xf32>
  %11 = ascend.Reshape %dyn {name = "dynreshape"} : tensor<?x8xf32> to tensor<?x2x4xf32>
  return
}

// CHECK-LABEL: func.func @attributes
func.func @attributes(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // CHECK: ascend.Relu %{{.*}} {absorbed = ["bn1", "relu1"], name = "conv1", precision = #ascend.precision<origin = f32, compute = f16, inputs = [f16], outputs = [f16], engine = aicore_vector, list = gray, rule = "ML-4", source = "mixlist.json:3">}
  %0 = ascend.Relu %x {name = "conv1", absorbed = ["bn1", "relu1"],
      precision = #ascend.precision<origin = f32, compute = f16, inputs = [f16],
          outputs = [f16], engine = aicore_vector, list = gray, rule = "ML-4",
          source = "mixlist.json:3">} : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// CHECK-LABEL: func.func @generic
func.func @generic(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: ascend.generic "Xlog1py"(%{{.*}}, %{{.*}}) {name = "xlogy", onnx.domain = "custom"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %0 = ascend.generic "Xlog1py"(%a, %a) {name = "xlogy", onnx.domain = "custom"}
      : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: ascend.generic "RandomUniform"() {name = "rand"} : () -> tensor<4xf32>
  %1 = ascend.generic "RandomUniform"() {name = "rand"} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Comparisons, logic, Select, and the rounding/trigonometric unary ops.
// CHECK-LABEL: func.func @compare_logic_select
func.func @compare_logic_select(%a: tensor<2x8xi32>, %b: tensor<8xi32>, %x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xi1>) {
  // CHECK: ascend.Equal {{.*}} : (tensor<2x8xi32>, tensor<8xi32>) -> tensor<2x8xi1>
  %eq = ascend.Equal %a, %b {name = "eq"} : (tensor<2x8xi32>, tensor<8xi32>) -> tensor<2x8xi1>
  %lt = ascend.Less %a, %b {name = "lt"} : (tensor<2x8xi32>, tensor<8xi32>) -> tensor<2x8xi1>
  %ge = ascend.GreaterEqual %a, %b {name = "ge"} : (tensor<2x8xi32>, tensor<8xi32>) -> tensor<2x8xi1>
  %and = ascend.LogicalAnd %eq, %lt {name = "and"} : (tensor<2x8xi1>, tensor<2x8xi1>) -> tensor<2x8xi1>
  %not = ascend.LogicalNot %and {name = "not"} : tensor<2x8xi1>
  %or = ascend.LogicalOr %not, %ge {name = "or"} : (tensor<2x8xi1>, tensor<2x8xi1>) -> tensor<2x8xi1>
  %r = ascend.Reciprocal %x {name = "rcp"} : tensor<2x8xf32>
  %f = ascend.Floor %r {name = "floor"} : tensor<2x8xf32>
  %e = ascend.Elu %f {name = "elu", alpha = 0.5 : f32} : tensor<2x8xf32>
  // CHECK: ascend.Select {{.*}} : (tensor<2x8xi1>, tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %s = ascend.Select %or, %e, %x {name = "where"} : (tensor<2x8xi1>, tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = ascend.ReduceMin %s {name = "min", axes = array<i64: 1>, keep_dims = true} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %p = ascend.ReduceProd %m {name = "prod", axes = array<i64: 0>} : (tensor<2x1xf32>) -> tensor<1xf32>
  return %s, %or : tensor<2x8xf32>, tensor<2x8xi1>
}
