// A Cast of a resource-backed constant folds into a new resource blob
// (large weights never become dense attributes); the conversion rounds as
// ascend.Cast does.
// RUN: prec-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @fold_to_f16
// CHECK: %[[C:.*]] = ascend.Const dense_resource<[[KEY:.*]]> : tensor<3xf16> {absorbed = ["w"], name = "c"}
// CHECK: return %[[C]]
func.func @fold_to_f16() -> tensor<3xf16> {
  %0 = ascend.Const dense_resource<w> : tensor<3xf32> {name = "w"}
  %1 = ascend.Cast %0 {name = "c"} : tensor<3xf32> to tensor<3xf16>
  return %1 : tensor<3xf16>
}

// 1.0, 2.0 and 65520.0 (rounds to +inf in f16): 0x3C00, 0x4000, 0x7C00.
// CHECK: [[KEY]]: "0x08000000003C0040007C"

{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F000000400000FF47"
    }
  }
#-}
