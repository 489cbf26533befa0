//===- prec-translate.cpp - AscendPrec translations -----------------------===//
//
// prec-translate --import-onnx model.onnx -o model.mlir
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Target/ONNX/ImportONNX.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  ascendprec::registerImportONNXTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "AscendPrec translation driver\n"));
}
