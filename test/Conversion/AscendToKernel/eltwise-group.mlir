// TbeEltwiseFusionPass groups lowered (EltwiseGroupLowering.cpp): a chain
// of elementwise ops is one vector kernel. The inputs from outside the
// chain are its only GM inputs (a scalar as a one-element tile, a smaller
// one broadcast), each member is one vop on UB tiles in its own compute
// dtype (FU-4), and only the last member's tile is stored.
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910B3 precision_mode=must_keep_origin_dtype" \
// RUN:   --prec-lower-to-kernel | FileCheck %s
// With the pass off, each op is a kernel of its own.
// RUN: printf '{"Switch": {"UBFusion": {"TbeEltwiseFusionPass": "off"}}}' > %t.json
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910B3 precision_mode=must_keep_origin_dtype fusion_switch_file=%t.json" \
// RUN:   --prec-lower-to-kernel | FileCheck %s --check-prefix=OFF
// force_fp16 on Ascend910: the Casts planning inserts before and after the
// fp16 chain join its kernel (the group and its kernel keep the chain's
// first op's name); each member computes in fp16 as alone.
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910 precision_mode=force_fp16" \
// RUN:   --prec-lower-to-kernel | FileCheck %s --check-prefix=FP16

// CHECK-LABEL: akernel.kernel @add
// CHECK-SAME: engine = #akernel.engine<vector>
// CHECK-SAME: nodes = ["add", "clip", "mul", "div"]
// CHECK-SAME: ub_group = "add"
// CHECK: ^bb0(%{{.*}}: memref<1x8x6x6xf32, #akernel.space<gm>>, %{{.*}}: memref<f32, #akernel.space<gm>>, %{{.*}}: memref<f32, #akernel.space<gm>>, %{{.*}}: memref<f32, #akernel.space<gm>>, %{{.*}}: memref<1x8x1x1xf32, #akernel.space<gm>>, %{{.*}}: memref<f32, #akernel.space<gm>>, %{{.*}}: memref<1x8x6x6xf32, #akernel.space<gm>>)
// CHECK: akernel.load {{.*}}broadcast
// CHECK: akernel.vop "add"
// CHECK: akernel.vop "clip"
// CHECK: akernel.vop "mul"
// CHECK: akernel.vop "div"
// CHECK-NOT: akernel.vop
// CHECK: akernel.store
// CHECK-NOT: akernel.store
// CHECK: }
// CHECK-LABEL: func.func @main
// CHECK-COUNT-1: akernel.launch @add
// CHECK-NOT: akernel.launch
// CHECK: return
// OFF-LABEL: func.func @main
// OFF-COUNT-4: akernel.launch
// OFF-NEXT: return
// FP16-LABEL: akernel.kernel @add
// FP16-SAME: nodes = ["x/Cast_float16", "add", "clip", "mul", "div", "div/Cast_float32"]
// FP16: akernel.vcast {{.*}}memref<16xf32, #akernel.space<ub>> -> memref<16xf16
// FP16: akernel.vop "add" {{.*}}{compute = f16}
// FP16: akernel.vop "clip" {{.*}}{compute = f16}
// FP16: akernel.vop "mul" {{.*}}{compute = f16}
// FP16: akernel.vop "div" {{.*}}{compute = f16}
// FP16: akernel.vcast {{.*}}-> memref<16xf32
// FP16: akernel.store
func.func @main(%x: tensor<1x8x6x6xf32> {ascend.name = "x"}) -> tensor<1x8x6x6xf32> {
  %three = ascend.Const dense<3.0> : tensor<f32> {name = "three"}
  %lo = ascend.Const dense<0.0> : tensor<f32> {name = "lo"}
  %hi = ascend.Const dense<6.0> : tensor<f32> {name = "hi"}
  %scale = ascend.Const dense<[[[[0.5]], [[1.0]], [[1.5]], [[2.0]], [[2.5]], [[3.0]], [[3.5]], [[4.0]]]]> : tensor<1x8x1x1xf32> {name = "scale"}
  %six = ascend.Const dense<6.0> : tensor<f32> {name = "six"}
  %0 = ascend.Add %x, %three {name = "add"} : (tensor<1x8x6x6xf32>, tensor<f32>) -> tensor<1x8x6x6xf32>
  %1 = ascend.ClipByValue %0, %lo, %hi {name = "clip"} : (tensor<1x8x6x6xf32>, tensor<f32>, tensor<f32>) -> tensor<1x8x6x6xf32>
  %2 = ascend.Mul %1, %scale {name = "mul"} : (tensor<1x8x6x6xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x6x6xf32>
  %y = ascend.RealDiv %2, %six {name = "div"} : (tensor<1x8x6x6xf32>, tensor<f32>) -> tensor<1x8x6x6xf32>
  return %y : tensor<1x8x6x6xf32>
}
