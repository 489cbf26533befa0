//===- AscendAttrs.td - `ascend` enums and attributes ------*- tablegen -*-===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_ASCENDATTRS_TD
#define ASCENDPREC_DIALECT_ASCEND_IR_ASCENDATTRS_TD

include "AscendPrec/Dialect/Ascend/IR/AscendDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

// IM-4: the values `op_precision_mode` accepts, spelled as CANN spells them.
def Ascend_ImplMode : I32EnumAttr<"ImplMode", "operator implementation mode (IM-4)", [
    I32EnumAttrCase<"HighPrecision", 0, "high_precision">,
    I32EnumAttrCase<"HighPerformance", 1, "high_performance">,
    I32EnumAttrCase<"EnableFloat32Execution", 2, "enable_float_32_execution">,
    I32EnumAttrCase<"EnableHiFloat32Execution", 3, "enable_hi_float_32_execution">,
    I32EnumAttrCase<"SupportOutOfBoundIndex", 4, "support_out_of_bound_index">,
    I32EnumAttrCase<"KeepFp16", 5, "keep_fp16">,
    I32EnumAttrCase<"SuperPerformance", 6, "super_performance">
  ]> {
  let cppNamespace = "::ascendprec::ascend";
  let genSpecializedAttr = 0;
}
def Ascend_ImplModeAttr : EnumAttr<Ascend_Dialect, Ascend_ImplMode, "impl_mode"> {
  let assemblyFormat = "`<` $value `>`";
}

// The execution engine an op is placed on.
def Ascend_Engine : I32EnumAttr<"Engine", "execution engine", [
    I32EnumAttrCase<"AICoreCube", 0, "aicore_cube">,
    I32EnumAttrCase<"AICoreVector", 1, "aicore_vector">,
    I32EnumAttrCase<"AICPU", 2, "aicpu">
  ]> {
  let cppNamespace = "::ascendprec::ascend";
  let genSpecializedAttr = 0;
}

// ML-1: an op type's colour in the mixed-precision list.
def Ascend_ListColor : I32EnumAttr<"ListColor", "mixed-precision list colour (ML-1)", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"White", 1, "white">,
    I32EnumAttrCase<"Black", 2, "black">,
    I32EnumAttrCase<"Gray", 3, "gray">
  ]> {
  let cppNamespace = "::ascendprec::ascend";
  let genSpecializedAttr = 0;
}

// Which hardware unit an op type computes on (vocabulary: cube vs vector).
def Ascend_ComputeUnit : I32EnumAttr<"ComputeUnit", "AI Core compute unit", [
    I32EnumAttrCase<"Cube", 0, "cube">,
    I32EnumAttrCase<"Vector", 1, "vector">
  ]> {
  let cppNamespace = "::ascendprec::ascend";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Op configuration enums (spelled as in Ascend IR and ONNX)
//===----------------------------------------------------------------------===//

class Ascend_ConfigEnum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::ascendprec::ascend";
  let genSpecializedAttr = 0;
}

def Ascend_DataFormat : Ascend_ConfigEnum<"DataFormat", "tensor layout", [
    I32EnumAttrCase<"NCHW", 0, "NCHW">, I32EnumAttrCase<"NHWC", 1, "NHWC">]>;
def Ascend_DataFormatAttr : EnumAttr<Ascend_Dialect, Ascend_DataFormat, "data_format"> {
  let assemblyFormat = "`<` $value `>`";
}

def Ascend_PadMode : Ascend_ConfigEnum<"PadMode", "padding mode", [
    I32EnumAttrCase<"Constant", 0, "constant">, I32EnumAttrCase<"Reflect", 1, "reflect">,
    I32EnumAttrCase<"Edge", 2, "edge">]>;
def Ascend_PadModeAttr : EnumAttr<Ascend_Dialect, Ascend_PadMode, "pad_mode"> {
  let assemblyFormat = "`<` $value `>`";
}

// DepthToSpace: the order of the channel blocks.
def Ascend_BlockOrder : Ascend_ConfigEnum<"BlockOrder", "channel block order", [
    I32EnumAttrCase<"DCR", 0, "DCR">, I32EnumAttrCase<"CRD", 1, "CRD">]>;
def Ascend_BlockOrderAttr : EnumAttr<Ascend_Dialect, Ascend_BlockOrder, "block_order"> {
  let assemblyFormat = "`<` $value `>`";
}

def Ascend_Interpolation : Ascend_ConfigEnum<"Interpolation", "sampling interpolation", [
    I32EnumAttrCase<"Bilinear", 0, "bilinear">, I32EnumAttrCase<"Nearest", 1, "nearest">,
    I32EnumAttrCase<"Bicubic", 2, "bicubic">]>;
def Ascend_InterpolationAttr : EnumAttr<Ascend_Dialect, Ascend_Interpolation, "interpolation"> {
  let assemblyFormat = "`<` $value `>`";
}

def Ascend_SamplePadding : Ascend_ConfigEnum<"SamplePadding", "out-of-image samples", [
    I32EnumAttrCase<"Zeros", 0, "zeros">, I32EnumAttrCase<"Border", 1, "border">,
    I32EnumAttrCase<"Reflection", 2, "reflection">]>;
def Ascend_SamplePaddingAttr : EnumAttr<Ascend_Dialect, Ascend_SamplePadding, "sample_padding"> {
  let assemblyFormat = "`<` $value `>`";
}

def Ascend_RnnDirection : Ascend_ConfigEnum<"RnnDirection", "recurrent direction", [
    I32EnumAttrCase<"Forward", 0, "forward">, I32EnumAttrCase<"Reverse", 1, "reverse">,
    I32EnumAttrCase<"Bidirectional", 2, "bidirectional">]>;
def Ascend_RnnDirectionAttr : EnumAttr<Ascend_Dialect, Ascend_RnnDirection, "rnn_direction"> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// The precision decision
//===----------------------------------------------------------------------===//

def Ascend_PrecisionAttr : AttrDef<Ascend_Dialect, "Precision"> {
  let mnemonic = "precision";
  let summary = "the precision decision planning made for one op";
  let description = [{
    Records what precision planning decided for an op and why:

    * `origin`: the op's float dtype in the model as imported;
    * `compute`: the dtype the op computes in;
    * `inputs` / `outputs`: the dtype of each operand / result, one per
      operand and result of the op;
    * `engine`: `aicore_cube`, `aicore_vector` or `aicpu`;
    * `list`: the op type's mixlist colour (`white`, `black`, `gray`, or
      `none` when no mixed mode is in force);
    * `rule`: the ID of the rule in `precision-semantics.md` that decided;
    * `source`: `"built-in"` or the `file:line` of the config entry.

    Example:
    ```mlir
    #ascend.precision<origin = f32, compute = f16, inputs = [f16, f16],
                      outputs = [f16], engine = aicore_cube, list = white,
                      rule = "ML-2", source = "built-in">
    ```
  }];
  let parameters = (ins
    "::mlir::Type":$origin,
    "::mlir::Type":$compute,
    ArrayRefParameter<"::mlir::Type">:$inputs,
    ArrayRefParameter<"::mlir::Type">:$outputs,
    EnumParameter<Ascend_Engine>:$engine,
    EnumParameter<Ascend_ListColor>:$list,
    StringRefParameter<"deciding rule ID">:$rule,
    StringRefParameter<"where the deciding entry came from">:$source
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// What planning leaves on the module for the report
//===----------------------------------------------------------------------===//

def Ascend_DiagnosticAttr : AttrDef<Ascend_Dialect, "Diagnostic"> {
  let mnemonic = "diagnostic";
  let summary = "a warning kept on the module for the report";
  let description = [{
    A warning from ONNX import or planning, kept in the module's
    `ascend.import_warnings` / `ascend.plan_warnings` so that a report
    written by a later run lists it:

    ```mlir
    #ascend.diagnostic<severity = "warning", rule = "ML-7", location = "mix.json:3:19", message = "...">
    ```
  }];
  let parameters = (ins
    StringRefParameter<"`warning` or `error`">:$severity,
    StringRefParameter<"the rule ID, if any", "\"\"">:$rule,
    StringRefParameter<"file:line:col or the node, if any", "\"\"">:$location,
    StringRefParameter<"the message">:$message);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Ascend_PolicyStateAttr : AttrDef<Ascend_Dialect, "PolicyState"> {
  let mnemonic = "policy";
  let summary = "the resolved policy planning used";
  let description = [{
    The SoC, the precision mode as the user spelled it, and every CANN
    option that was set (as text), kept in the module's `ascend.policy`:

    ```mlir
    #ascend.policy<soc_version = "Ascend910", precision_mode = "allow_mix_precision", options = {precision_mode = "allow_mix_precision", soc_version = "Ascend910"}>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the SoC">:$soc_version,
    StringRefParameter<"the precision mode as given">:$precision_mode,
    "::mlir::DictionaryAttr":$options);
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // ASCENDPREC_DIALECT_ASCEND_IR_ASCENDATTRS_TD
