// Row-wise vector kernels: reductions over contiguous axes, Softmax,
// LayerNorm and pooling. 16-bit sums accumulate in fp32. A row too long
// for UB is reduced in chunks: without deterministic the chunks are split
// over the cores and meet in GM by atomic adds (order not fixed); with
// deterministic=1 (OP-3) one core adds them in sequence.
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910 precision_mode=must_keep_origin_dtype" \
// RUN:   --prec-lower-to-kernel | FileCheck %s --check-prefixes=CHECK,ATOMIC
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910 precision_mode=must_keep_origin_dtype deterministic=1" \
// RUN:   --prec-lower-to-kernel | FileCheck %s --check-prefixes=CHECK,FIXED

// CHECK-LABEL: akernel.kernel @row_sum
// CHECK: akernel.vreduce "sum" %{{.*}} -> %{{.*}} {acc = f32, axes = array<i64: 1>, order = #akernel.order<tree>} : memref<{{[0-9]+}}x64x1xf16, #akernel.space<ub>>
func.func @small(%x: tensor<8x64xf16>) -> tensor<8x1xf16> {
  %y = ascend.ReduceSum %x {name = "row_sum", axes = array<i64: 1>, keep_dims = true} : (tensor<8x64xf16>) -> tensor<8x1xf16>
  return %y : tensor<8x1xf16>
}

// 4M fp32 elements do not fit UB (256 KiB).
// CHECK-LABEL: akernel.kernel @total
// ATOMIC-SAME: block_dim = 32 : i64
// ATOMIC: akernel.vreduce "sum" {{.*}}order = #akernel.order<atomic>
// ATOMIC: akernel.store %{{.*}} -> %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] {atomic}
// FIXED-SAME: block_dim = 1 : i64
// FIXED: scf.for
// FIXED: akernel.vreduce "sum" {{.*}}order = #akernel.order<sequential>
// FIXED-NOT: atomic
// FIXED: akernel.vop "add"
func.func @big(%x: tensor<4096x1024xf32>) -> tensor<1x1xf32> {
  %y = ascend.ReduceSum %x {name = "total", axes = array<i64: 0, 1>, keep_dims = true} : (tensor<4096x1024xf32>) -> tensor<1x1xf32>
  return %y : tensor<1x1xf32>
}

// CHECK-LABEL: akernel.kernel @softmax
// CHECK: akernel.vreduce "max"
// CHECK: akernel.vop "sub"
// CHECK: akernel.vop "exp"
// CHECK: akernel.vreduce "sum" {{.*}}acc = f32
// CHECK: akernel.vop "div"
func.func @softmax(%x: tensor<16x128xf32>) -> tensor<16x128xf32> {
  %y = ascend.SoftmaxV2 %x {name = "softmax", axes = array<i64: -1>} : tensor<16x128xf32>
  return %y : tensor<16x128xf32>
}

// A row that fits UB once but not twice (12,000 fp32 classes need 192,000
// bytes of buffers): one tile at a time, without double buffering.
// CHECK-LABEL: akernel.kernel @softmax_long_{{[0-9]+}} attributes {block_dim = 2 : i64, engine = #akernel.engine<vector>, nodes = ["softmax_long"], tiling = {rows = 1 : i64, tiles = 2 : i64}}
func.func @softmax_long(%x: tensor<2x12000xf32>) -> tensor<2x12000xf32> {
  %y = ascend.SoftmaxV2 %x {name = "softmax_long", axes = array<i64: -1>} : tensor<2x12000xf32>
  return %y : tensor<2x12000xf32>
}

// LayerNorm over the last axis (begin_norm_axis = -1): mean, variance,
// rsqrt(var + eps), gamma and beta loaded once per core.
// CHECK-LABEL: akernel.kernel @ln
// CHECK: akernel.load %{{.*}}[%c0, %c0] -> %{{.*}} : memref<1x64xf32
// CHECK: akernel.vreduce "mean"
// CHECK: akernel.vop "adds" %{{.*}} -> %{{.*}} {compute = f32, params = array<f64: 1.000000e-05>}
// CHECK: akernel.vop "rsqrt"
func.func @layernorm(%x: tensor<2x8x64xf32>) -> tensor<2x8x64xf32> {
  %g = ascend.Const dense<1.0> : tensor<64xf32> {name = "ln.g"}
  %b = ascend.Const dense<0.0> : tensor<64xf32> {name = "ln.b"}
  %y, %m, %v = ascend.LayerNorm %x, %g, %b {name = "ln", begin_norm_axis = -1 : i64, begin_params_axis = -1 : i64}
      : (tensor<2x8x64xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<2x8x64xf32>, tensor<2x8x1xf32>, tensor<2x8x1xf32>)
  return %y : tensor<2x8x64xf32>
}

// CHECK-LABEL: akernel.kernel @pool
// CHECK: akernel.vpool "max" %{{.*}} -> %{{.*}} {acc = f16, kernel = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : memref<{{[0-9]+}}x16x16xf16, #akernel.space<ub>> -> memref<{{[0-9]+}}x8x8xf16, #akernel.space<ub>>
// An average accumulates fp16 in fp32 and divides by the window inside it.
// CHECK-LABEL: akernel.kernel @avg
// CHECK: akernel.vpool "avg" %{{.*}} -> %{{.*}} {acc = f32, exclusive, kernel = array<i64: 2, 2>
func.func @pool(%x: tensor<1x8x16x16xf16>) -> (tensor<1x8x8x8xf16>, tensor<1x8x8x8xf16>) {
  %y = ascend.MaxPool %x {name = "pool", ksize = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x8x16x16xf16>) -> tensor<1x8x8x8xf16>
  %z = ascend.AvgPool %x {name = "avg", ksize = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x8x16x16xf16>) -> tensor<1x8x8x8xf16>
  return %y, %z : tensor<1x8x8x8xf16>, tensor<1x8x8x8xf16>
}

// A mean over N, H and W of NCHW (BatchNorm's training statistics, MVN):
// the axes are not adjacent, so H*W is reduced first (keep_dims, same
// node), then N of the [N, C, 1, 1] result: [1, N, C] rows. An axis of size
// 1 does not break a run: axes {0, 2} of [4, 1, 8] are one run.
// CHECK-LABEL: akernel.kernel @stats
// CHECK: akernel.vreduce "mean" {{.*}} : memref<{{[0-9]+}}x20x1xf32, #akernel.space<ub>>
// CHECK: akernel.kernel @stats
// CHECK: akernel.vreduce "mean" {{.*}} : memref<{{[0-9]+}}x2x3xf32, #akernel.space<ub>>
// CHECK: akernel.launch @stats{{.*}}(%arg0) {nodes = ["stats"]} : (tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32>
// CHECK: akernel.launch @stats{{.*}} : (tensor<2x3x1x1xf32>) -> tensor<3xf32>
// CHECK: akernel.launch @one_run{{.*}} : (tensor<4x1x8xf32>) -> tensor<1xf32>
func.func @split_mean(%x: tensor<2x3x4x5xf32>, %y: tensor<4x1x8xf32>) -> (tensor<3xf32>, tensor<1xf32>) {
  %m = ascend.ReduceMean %x {name = "stats", axes = array<i64: 0, 2, 3>} : (tensor<2x3x4x5xf32>) -> tensor<3xf32>
  %s = ascend.ReduceSum %y {name = "one_run", axes = array<i64: 0, 2>} : (tensor<4x1x8xf32>) -> tensor<1xf32>
  return %m, %s : tensor<3xf32>, tensor<1xf32>
}

// 3-D pooling (MaxPool3D, AvgPool3D): [N*C volumes, D, H, W] tiles, the
// window with one entry per spatial axis.
// CHECK-LABEL: akernel.kernel @pool3d
// CHECK: akernel.vpool "max" %{{.*}} -> %{{.*}} {acc = f16, kernel = array<i64: 2, 2, 2>, pads = array<i64: 0, 0, 0, 0, 0, 0>, strides = array<i64: 2, 2, 2>} : memref<{{[0-9]+}}x8x8x8xf16, #akernel.space<ub>> -> memref<{{[0-9]+}}x4x4x4xf16, #akernel.space<ub>>
// CHECK-LABEL: akernel.kernel @avg3d
// CHECK: akernel.vpool "avg" %{{.*}} -> %{{.*}} {acc = f32, exclusive, kernel = array<i64: 2, 2, 2>
func.func @volume_pooling(%x: tensor<1x4x8x8x8xf16>) -> (tensor<1x4x4x4x4xf16>, tensor<1x4x4x4x4xf16>) {
  %y = ascend.MaxPool3D %x {name = "pool3d", ksize = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>, pads = array<i64: 0, 0, 0, 0, 0, 0>} : (tensor<1x4x8x8x8xf16>) -> tensor<1x4x4x4x4xf16>
  %z = ascend.AvgPool3D %x {name = "avg3d", ksize = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>, pads = array<i64: 0, 0, 0, 0, 0, 0>} : (tensor<1x4x8x8x8xf16>) -> tensor<1x4x4x4x4xf16>
  return %y, %z : tensor<1x4x4x4x4xf16>, tensor<1x4x4x4x4xf16>
}

// A volume too large for UB (40^3 fp16 is 125 KiB; the Ascend910's UB of
// 256 KiB does not hold it double-buffered with its output) is cut along its
// depth: a step pools 20 output slices from 21 input slices (stride 1,
// window 2); the 39 slices take 2 steps per volume, the last one cropped by
// the store.
// CHECK-LABEL: akernel.kernel @pool3d_big
// CHECK-SAME: double_buffer
// CHECK-SAME: tiling = {planes = 1 : i64, rows = 20 : i64, tiles = 6 : i64}
// CHECK: akernel.vpool "max" %{{.*}} -> %{{.*}} {{.*}} : memref<1x21x40x40xf16, #akernel.space<ub>> -> memref<1x20x39x39xf16, #akernel.space<ub>>
func.func @volume_pooling_big(%x: tensor<1x3x40x40x40xf16>) -> tensor<1x3x39x39x39xf16> {
  %y = ascend.MaxPool3D %x {name = "pool3d_big", ksize = array<i64: 2, 2, 2>, strides = array<i64: 1, 1, 1>, pads = array<i64: 0, 0, 0, 0, 0, 0>} : (tensor<1x3x40x40x40xf16>) -> tensor<1x3x39x39x39xf16>
  return %y : tensor<1x3x39x39x39xf16>
}

// A padded pooling of planes too large for UB (a ResNet stem's 3x3/2 max
// pool at 1024x1000) is cut into windows of output rows too: the first
// window has the top padding row before its 16 input rows, the other 63
// share one shape (8 output rows from 17 input rows) and run in a loop.
// CHECK-LABEL: akernel.kernel @stem_pool
// CHECK-SAME: tiling = {planes = 1 : i64, rows = 8 : i64, tiles = 2 : i64}
// CHECK: akernel.load {{.*}} -> memref<1x16x1000xf16, #akernel.space<ub>>
// CHECK: akernel.vpool "max" {{.*}}pads = array<i64: 1, 0, 1, 1>{{.*}} : memref<1x16x1000xf16, #akernel.space<ub>> -> memref<1x8x500xf16, #akernel.space<ub>>
// CHECK: scf.for %{{.*}} = %c0 to %c63 step %c1
// CHECK: akernel.vpool "max" {{.*}}pads = array<i64: 0, 0, 1, 1>{{.*}} : memref<1x17x1000xf16, #akernel.space<ub>> -> memref<1x8x500xf16, #akernel.space<ub>>
func.func @padded_pooling_big(%x: tensor<1x2x1024x1000xf16>) -> tensor<1x2x512x500xf16> {
  %y = ascend.MaxPool %x {name = "stem_pool", ksize = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x1024x1000xf16>) -> tensor<1x2x512x500xf16>
  return %y : tensor<1x2x512x500xf16>
}

// InstanceNorm: a row per (image, channel) over H*W; gamma and beta are
// per channel, read with each tile of rows through a broadcast over the
// images.
// CHECK-LABEL: akernel.kernel @in
// CHECK: akernel.load %{{.*}}[%{{.*}}] -> %{{.*}} {broadcast = array<i64: 2, 4>} : memref<1x4xf32
// CHECK: akernel.vreduce "mean" %{{.*}} -> %{{.*}} {acc = f32, axes = array<i64: 1>, order = #akernel.order<tree>} : memref<{{[0-9]+}}x64xf32
func.func @instancenorm(%x: tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32> {
  %g = ascend.Const dense<1.0> : tensor<4xf32> {name = "in.g"}
  %b = ascend.Const dense<0.0> : tensor<4xf32> {name = "in.b"}
  %y, %m, %v = ascend.InstanceNorm %x, %g, %b {name = "in"}
      : (tensor<2x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x4x8x8xf32>, tensor<2x4x1x1xf32>, tensor<2x4x1x1xf32>)
  return %y : tensor<2x4x8x8xf32>
}

// A plane too large for UB (1024x1021) is normalized in chunks, three
// passes (sum, sum of squares about the mean, output); the last chunk has
// buffers of its own size.
// CHECK-LABEL: akernel.kernel @big_in
// CHECK-SAME: tiling = {chunk = 8188 : i64, rows = 1 : i64, tiles = 3 : i64}
// CHECK: scf.for %{{.*}} = %c0 to %c1039876 step %c8188
// CHECK: akernel.vreduce "sum" {{.*}} : memref<1x8188xf32, #akernel.space<ub>> -> memref<1x1xf32, #akernel.space<ub>>
// CHECK: akernel.vreduce "sum" {{.*}} : memref<1x5628xf32, #akernel.space<ub>> -> memref<1x1xf32, #akernel.space<ub>>
// CHECK: akernel.vop "mul"
// CHECK: akernel.vreduce "sum" {{.*}} : memref<1x8188xf32, #akernel.space<ub>>
// CHECK: akernel.vop "rsqrt"
// CHECK: akernel.store {{.*}} : memref<1x8188xf32, #akernel.space<ub>> -> memref<3x1045504xf32
func.func @instancenorm_large(%x: tensor<1x3x1024x1021xf32>) -> tensor<1x3x1024x1021xf32> {
  %g = ascend.Const dense<1.0> : tensor<3xf32> {name = "big_in.g"}
  %b = ascend.Const dense<0.0> : tensor<3xf32> {name = "big_in.b"}
  %y, %m, %v = ascend.InstanceNorm %x, %g, %b {name = "big_in"}
      : (tensor<1x3x1024x1021xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<1x3x1024x1021xf32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>)
  return %y : tensor<1x3x1024x1021xf32>
}

// A BERT-base LayerNorm: the rows per step leave room for gamma and beta
// (loaded once) and each row's statistics, so the kernel fits UB (it failed
// the buffer check before).
// CHECK-LABEL: akernel.kernel @ln768
// CHECK-SAME: tiling = {rows = {{[0-9]+}} : i64
func.func @layernorm768(%x: tensor<8x128x768xf32>) -> tensor<8x128x768xf32> {
  %g = ascend.Const dense<1.0> : tensor<768xf32> {name = "ln768.g"}
  %b = ascend.Const dense<0.0> : tensor<768xf32> {name = "ln768.b"}
  %y, %m, %v = ascend.LayerNorm %x, %g, %b {name = "ln768", begin_norm_axis = 2 : i64, begin_params_axis = 2 : i64}
      : (tensor<8x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> (tensor<8x128x768xf32>, tensor<8x128x1xf32>, tensor<8x128x1xf32>)
  return %y : tensor<8x128x768xf32>
}

// ArgMaxV2/ArgMin: one vreduce comparing exactly in the data's dtype and
// writing the op's index dtype (first index on ties, the first NaN wins).
// CHECK-LABEL: akernel.kernel @am
// CHECK: akernel.vreduce "argmax" %{{.*}} -> %{{.*}} {acc = f16, axes = array<i64: 1>, order = #akernel.order<tree>} : memref<{{[0-9]+}}x8x4xf16, #akernel.space<ub>> -> memref<{{[0-9]+}}x1x4xi64, #akernel.space<ub>>
// CHECK: akernel.store %{{.*}} : memref<{{[0-9]+}}x1x4xi64
// CHECK-LABEL: akernel.kernel @amin
// CHECK: akernel.vreduce "argmin" %{{.*}} -> %{{.*}} {acc = f32, axes = array<i64: 1>, order = #akernel.order<tree>} : memref<{{[0-9]+}}x32x1xf32, #akernel.space<ub>> -> memref<{{[0-9]+}}x1x1xi32, #akernel.space<ub>>
func.func @arg(%x: tensor<2x8x4xf16>, %z: tensor<6x32xf32>) -> (tensor<2x1x4xi64>, tensor<6xi32>) {
  %y = ascend.ArgMaxV2 %x {name = "am", axis = 1 : i64, keep_dims = true} : (tensor<2x8x4xf16>) -> tensor<2x1x4xi64>
  %w = ascend.ArgMin %z {name = "amin", axis = -1 : i64} : (tensor<6x32xf32>) -> tensor<6xi32>
  return %y, %w : tensor<2x1x4xi64>, tensor<6xi32>
}

// ReduceL1/SumSquare: |x| or x*x in the vector compute dtype (fp16 stays
// fp16), then the sum accumulating in fp32.
// CHECK-LABEL: akernel.kernel @l1
// CHECK: akernel.vop "abs" %{{.*}} -> %{{.*}} {compute = f16}
// CHECK-NEXT: akernel.vreduce "sum" %{{.*}} -> %{{.*}} {acc = f32, axes = array<i64: 1>, order = #akernel.order<tree>} : memref<{{[0-9]+}}x64x1xf16, #akernel.space<ub>> -> memref<{{[0-9]+}}x1x1xf16
// CHECK-LABEL: akernel.kernel @ssq
// CHECK: akernel.vop "mul" %[[X:[^,]*]], %[[X]] -> %{{.*}} {compute = f32} : memref<{{[0-9]+}}x64x1xf32, #akernel.space<ub>>, memref<{{[0-9]+}}x64x1xf32, #akernel.space<ub>> -> memref<{{[0-9]+}}x64x1xf32
// CHECK-NEXT: akernel.vreduce "sum" %{{.*}} -> %{{.*}} {acc = f32, {{.*}}} : memref<{{[0-9]+}}x64x1xf32, #akernel.space<ub>> -> memref<{{[0-9]+}}x1x1xf32
func.func @l1_ssq(%x: tensor<8x64xf16>, %b: tensor<8x64xf32>) -> (tensor<8xf16>, tensor<8xf32>) {
  %y = ascend.ReduceL1 %x {name = "l1", axes = array<i64: 1>} : (tensor<8x64xf16>) -> tensor<8xf16>
  %z = ascend.ReduceSumSquare %b {name = "ssq", axes = array<i64: -1>} : (tensor<8x64xf32>) -> tensor<8xf32>
  return %y, %z : tensor<8xf16>, tensor<8xf32>
}

// ReduceL2/LogSum: sqrt or log of the sum in its accumulation dtype, one
// rounding to the output (none for fp32, where the step works in place).
// CHECK-LABEL: akernel.kernel @l2
// CHECK: akernel.vop "mul" {{.*}} {compute = f16}
// CHECK-NEXT: akernel.vreduce "sum" %{{.*}} -> %[[SUM:.*]] {acc = f32, {{.*}}} : memref<{{[0-9]+}}x64x1xf16, #akernel.space<ub>> -> memref<{{[0-9]+}}x1x1xf32
// CHECK-NEXT: akernel.vop "sqrt" %[[SUM]] -> %[[SUM]] {compute = f32}
// CHECK-NEXT: akernel.vcast %[[SUM]] -> %{{.*}} {round = #akernel.round<rint>} : memref<{{[0-9]+}}x1x1xf32, #akernel.space<ub>> -> memref<{{[0-9]+}}x1x1xf16
// CHECK-LABEL: akernel.kernel @logsum
// CHECK-NOT: akernel.vop "mul"
// CHECK: akernel.vreduce "sum" %{{.*}} -> %[[LS:.*]] {acc = f32, {{.*}}} : memref<{{[0-9]+}}x16x8xf32
// CHECK-NEXT: akernel.vop "log" %[[LS]] -> %[[LS]] {compute = f32}
// CHECK-NEXT: akernel.store %[[LS]]
func.func @l2_logsum(%x: tensor<8x64xf16>, %z: tensor<4x16x8xf32>) -> (tensor<8xf16>, tensor<4x8xf32>) {
  %y = ascend.ReduceL2 %x {name = "l2", axes = array<i64: 1>} : (tensor<8x64xf16>) -> tensor<8xf16>
  %w = ascend.ReduceLogSum %z {name = "logsum", axes = array<i64: 1>} : (tensor<4x16x8xf32>) -> tensor<4x8xf32>
  return %y, %w : tensor<8xf16>, tensor<4x8xf32>
}

// ReduceLogSumExp, the stable form: max + log(sum(exp(x - max))).
// CHECK-LABEL: akernel.kernel @lse
// CHECK: akernel.vreduce "max" %[[IN:.*]] -> %[[MAX:.*]] {acc = f16, {{.*}}order = #akernel.order<tree>}
// CHECK-NEXT: akernel.vop "sub" %[[IN]], %[[MAX]] -> %[[W:.*]] {compute = f16}
// CHECK-NEXT: akernel.vop "exp" %[[W]] -> %[[W]] {compute = f16}
// CHECK-NEXT: akernel.vreduce "sum" %[[W]] -> %[[S:.*]] {acc = f32,
// CHECK-NEXT: akernel.vop "log" %[[S]] -> %[[S]] {compute = f32}
// CHECK-NEXT: akernel.vop "add" %[[S]], %[[MAX]] -> %[[S]] {compute = f32}
// CHECK-NEXT: akernel.vcast %[[S]]
func.func @lse(%x: tensor<8x64xf16>) -> tensor<8x1xf16> {
  %y = ascend.ReduceLogSumExp %x {name = "lse", axes = array<i64: 1>, keep_dims = true} : (tensor<8x64xf16>) -> tensor<8x1xf16>
  return %y : tensor<8x1xf16>
}

// A long L1 sums |x| chunk by chunk like ReduceSum (atomically without
// deterministic); a long L2 needs the whole sum before its sqrt, so one
// core per row adds the chunks in order either way.
// CHECK-LABEL: akernel.kernel @long_l1
// ATOMIC: akernel.vop "abs"
// ATOMIC-NEXT: akernel.vreduce "sum" {{.*}}order = #akernel.order<atomic>
// FIXED: akernel.vreduce "sum" {{.*}}order = #akernel.order<sequential>
// CHECK-LABEL: akernel.kernel @long_l2
// CHECK-NOT: atomic
// CHECK: akernel.vop "mul"
// CHECK-NEXT: akernel.vreduce "sum" {{.*}}order = #akernel.order<sequential>
// CHECK: akernel.vop "add"
// CHECK: akernel.vop "sqrt"
// CHECK-NEXT: akernel.vop "copy"
// CHECK-NEXT: akernel.store
func.func @long(%x: tensor<4096x1024xf32>) -> (tensor<1x1xf32>, tensor<1x1xf32>) {
  %y = ascend.ReduceL1 %x {name = "long_l1", axes = array<i64: 0, 1>, keep_dims = true} : (tensor<4096x1024xf32>) -> tensor<1x1xf32>
  %z = ascend.ReduceL2 %x {name = "long_l2", axes = array<i64: 0, 1>, keep_dims = true} : (tensor<4096x1024xf32>) -> tensor<1x1xf32>
  return %y, %z : tensor<1x1xf32>, tensor<1x1xf32>
}

// LRN: whole images as [images, C, H*W] tiles; the channel window's sum of
// squares is an average pooling of x^2 along C counting the padding
// (window 2r+1, pads r), scaled back by the window; then
// exp(-beta * log(bias + alpha * sum)) times x, in fp32.
// CHECK-LABEL: akernel.kernel @lrn
// CHECK: akernel.vop "mul" %{{.*}}, %{{.*}} -> %{{.*}} {compute = f32}
// CHECK: akernel.vpool "avg" %{{.*}} -> %{{.*}} {acc = f32, kernel = array<i64: 5, 1>, pads = array<i64: 2, 2, 0, 0>, strides = array<i64: 1, 1>} : memref<1x8x16xf32, #akernel.space<ub>> -> memref<1x8x16xf32, #akernel.space<ub>>
// CHECK: akernel.vop "muls" {{.*}} params = array<f64: 1.000000e-04>
// CHECK: akernel.vop "adds" {{.*}} params = array<f64: 2.000000e+00>
// CHECK: akernel.vop "log"
// CHECK: akernel.vop "muls" {{.*}} params = array<f64: -7.500000e-01>
// CHECK: akernel.vop "exp"
func.func @lrn(%x: tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32> {
  %y = ascend.LRN %x {name = "lrn", depth_radius = 2 : i64, bias = 2.0 : f32, alpha = 2.0e-05 : f32, beta = 0.75 : f32} : tensor<2x8x4x4xf32>
  return %y : tensor<2x8x4x4xf32>
}

// TopKV2 along the middle axis: [outer, n, inner] rows in UB, k from the
// result (the k operand is not read), values and indices stored apart.
// CHECK-LABEL: akernel.kernel @topk
// CHECK-SAME: engine = #akernel.engine<vector>
// CHECK: akernel.vtopk %{{.*}} -> %{{.*}}, %{{.*}} {largest} : memref<{{[0-9]+}}x16x4xf32, #akernel.space<ub>> -> memref<{{[0-9]+}}x3x4xf32, #akernel.space<ub>>, memref<{{[0-9]+}}x3x4xi64, #akernel.space<ub>>
// CHECK-LABEL: akernel.kernel @bottomk
// CHECK: akernel.vtopk %{{.*}} -> %{{.*}}, %{{.*}} : memref<{{[0-9]+}}x4x1xf32
func.func @topk(%x: tensor<2x16x4xf32>, %k: tensor<1xi64>) -> (tensor<2x3x4xf32>, tensor<2x3x4xi64>, tensor<2x16x2xi64>) {
  %v, %i = ascend.TopKV2 %x, %k {name = "topk", dim = 1 : i64} : (tensor<2x16x4xf32>, tensor<1xi64>) -> (tensor<2x3x4xf32>, tensor<2x3x4xi64>)
  %w, %j = ascend.TopKV2 %x, %k {name = "bottomk", largest = false} : (tensor<2x16x4xf32>, tensor<1xi64>) -> (tensor<2x16x2xf32>, tensor<2x16x2xi64>)
  return %v, %i, %j : tensor<2x3x4xf32>, tensor<2x3x4xi64>, tensor<2x16x2xi64>
}

// Issue 56: no softmax needs a whole [reduced, inner] slab in UB. Over
// NCHW's C of a 1024x1024 map it takes columns of the map (each column its
// own softmax); over 100,003 classes it takes the row in chunks, three
// passes (max, sum of exp, output), the last chunk in buffers of its own
// size. A chunked ReduceMax stops at the row's end too: zeros read past it
// would win over negative values.
// CHECK-LABEL: akernel.kernel @per_pixel
// CHECK-SAME: tiling = {columns = 1489 : i64, rows = 1 : i64, tiles = 705 : i64}
// CHECK: akernel.load {{.*}} : memref<1x5x1048576xf32, {{.*}}> -> memref<1x5x1489xf32, #akernel.space<ub>>
// CHECK-LABEL: akernel.kernel @classes
// CHECK-SAME: tiling = {chunk = 10922 : i64, columns = 1 : i64, rows = 1 : i64, tiles = 2 : i64}
// CHECK: scf.for %{{.*}} = %c0 to %c98298 step %c10922
// CHECK: akernel.vreduce "max" {{.*}} : memref<1x10922x1xf32, #akernel.space<ub>>
// CHECK: akernel.load %{{.*}}[%{{.*}}, %c98298, %{{.*}}] -> {{.*}} -> memref<1x1705x1xf32, #akernel.space<ub>>
// CHECK: akernel.vreduce "max" {{.*}} : memref<1x1705x1xf32, #akernel.space<ub>>
// CHECK: akernel.vreduce "sum"
// CHECK: akernel.vreduce "sum" {{.*}} : memref<1x1705x1xf32, #akernel.space<ub>>
// CHECK: akernel.store {{.*}} : memref<1x10922x1xf32, #akernel.space<ub>> -> memref<2x100003x1xf32
// CHECK: akernel.store {{.*}} : memref<1x1705x1xf32, #akernel.space<ub>> -> memref<2x100003x1xf32
// CHECK-LABEL: akernel.kernel @top
// CHECK: scf.for %{{.*}} = %c0 to %c98304 step %c8192
// CHECK: akernel.load %{{.*}}[%{{.*}}, %c98304, %c0] -> {{.*}} -> memref<1x1699x1xf32, #akernel.space<ub>>
func.func @softmax_large(%x: tensor<1x5x1024x1024xf32>, %l: tensor<2x100003xf32>) -> (tensor<1x5x1024x1024xf32>, tensor<2x100003xf32>, tensor<2x1xf32>) {
  %y = ascend.SoftmaxV2 %x {name = "per_pixel", axes = array<i64: 1>} : tensor<1x5x1024x1024xf32>
  %z = ascend.LogSoftmaxV2 %l {name = "classes", axes = array<i64: -1>} : tensor<2x100003xf32>
  %m = ascend.ReduceMax %l {name = "top", axes = array<i64: 1>, keep_dims = true} : (tensor<2x100003xf32>) -> tensor<2x1xf32>
  return %y, %z, %m : tensor<1x5x1024x1024xf32>, tensor<2x100003xf32>, tensor<2x1xf32>
}

// A reduction whose [reduced, inner] slab does not fit UB but whose columns
// do (a segmentation head's class per pixel over C of a 1024x1024 map)
// takes columns of the inner axis, one row per step: each column reduces
// alone, the bits are those of whole rows.
// CHECK-LABEL: akernel.kernel @classes_per_pixel
// CHECK-SAME: tiling = {columns = 2340 : i64, rows = 1 : i64, tiles = 449 : i64}
// CHECK: akernel.load {{.*}} : memref<1x6x1048576xf32, {{.*}}> -> memref<1x6x2340xf32, #akernel.space<ub>>
// CHECK: akernel.vreduce "argmax" {{.*}} : memref<1x6x2340xf32, #akernel.space<ub>> -> memref<1x1x2340xi32, #akernel.space<ub>>
func.func @argmax_large(%x: tensor<1x6x1024x1024xf32>) -> tensor<1x1024x1024xi32> {
  %y = ascend.ArgMaxV2 %x {name = "classes_per_pixel", axis = 1 : i64} : (tensor<1x6x1024x1024xf32>) -> tensor<1x1024x1024xi32>
  return %y : tensor<1x1024x1024xi32>
}

// An arg reduction over rows too long for UB (100,003 token scores) runs
// chunk by chunk: each chunk's extreme and index, the index moved by the
// chunk's offset, the row's pair replaced only when the chunk's is strictly
// better or a NaN the row has not met (the first extreme of the row wins).
// CHECK-LABEL: akernel.kernel @next_token
// CHECK-SAME: tiling = {chunk = 16379 : i64, rows = 1 : i64, tiles = 3 : i64}
// CHECK: akernel.vreduce "argmax" {{.*}} : memref<1x16379x1xf32, #akernel.space<ub>> -> memref<1x1x1xi32, #akernel.space<ub>>
// CHECK: akernel.vop "adds" {{.*}}params = array<f64: 1.637900e+04>
// CHECK: akernel.vop "cmp_gt"
// CHECK: akernel.vop "is_nan"
// CHECK: akernel.vop "select" {{.*}}{compute = i32}
func.func @argmax_long(%x: tensor<3x100003xf32>) -> tensor<3xi32> {
  %y = ascend.ArgMaxV2 %x {name = "next_token", axis = 1 : i64} : (tensor<3x100003xf32>) -> tensor<3xi32>
  return %y : tensor<3xi32>
}
