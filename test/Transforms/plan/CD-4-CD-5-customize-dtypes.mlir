// CD-4: customize_dtypes beats keep_dtype and the mode; an Opname entry beats
// an OpType entry. CD-5: a pin no kernel row fits fails the build, naming
// the rows the op has.
// RUN: prec-opt %s -split-input-file -verify-diagnostics \
// RUN:   --prec-plan-precision="soc_version=Ascend910 precision_mode=force_fp16 customize_dtypes=%S/../inputs/pins.cfg" \
// RUN:   | FileCheck %s
// RUN: not prec-opt %s -split-input-file --prec-plan-precision="soc_version=Ascend910 precision_mode=force_fp16 customize_dtypes=%S/../inputs/pin-impossible.cfg" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CD5

// CHECK-LABEL: func.func @pins
func.func @pins(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // CHECK: ascend.Relu {{.*}}name = "relu", {{.*}}compute = f32{{.*}}rule = "CD-4", source = "{{.*}}pins.cfg:1"
  %r = ascend.Relu %x {name = "relu"} : tensor<8xf32>
  // CHECK: ascend.Relu {{.*}}name = "relu2", {{.*}}compute = f16{{.*}}rule = "CD-4", source = "{{.*}}pins.cfg:2"
  %s = ascend.Relu %x {name = "relu2"} : tensor<8xf32>
  return %r, %s : tensor<8xf32>, tensor<8xf32>
}

// CD5: error: customize_dtypes pins relu (Relu) to inputs (float16), outputs (int8), which no kernel supports; the model cannot be built. Its kernels support:
// CD5-NEXT: AI Core (float16) -> (float16)
// CD5: pin-impossible.cfg:1:1: note: configured here
