//===- AscendControlFlow.td - If, Loop, Scan and their Yield -*- tablegen -*-===//
//
// Control flow as Ascend IR has it (`If`, `Loop`, `Scan`, which ATC builds
// from ONNX's ops of the same names). These ops compute nothing themselves,
// so they carry no precision decision and are not AscendOpInterface ops:
// planning, materialization and the reports look through them at the ops in
// their regions. Their operands and results keep the model's dtypes; the
// region's Yield converts back where a planned op inside changed one
// (docs/control-flow.md).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_ASCENDCONTROLFLOW_TD
#define ASCENDPREC_DIALECT_ASCEND_IR_ASCENDCONTROLFLOW_TD

include "mlir/Interfaces/ControlFlowInterfaces.td"

class Ascend_ControlFlowOp<string mnemonic, list<Trait> traits = []>
    : Op<Ascend_Dialect, mnemonic,
         !listconcat([RecursiveMemoryEffects, RecursivelySpeculatable],
                     traits)> {
  let hasVerifier = 1;
}

def Ascend_YieldOp : Op<Ascend_Dialect, "Yield",
    [Pure, Terminator, ReturnLike,
     ParentOneOf<["IfOp", "LoopOp", "ScanOp"]>]> {
  let summary = "the values a control-flow region hands back";
  let description = [{
    Ends every region of `ascend.If`, `ascend.Loop` and `ascend.Scan`: the
    subgraph's outputs, in the order of the ONNX subgraph's outputs.

    Example:
    ```mlir
    ascend.Yield %y : tensor<4xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyTensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def Ascend_IfOp : Ascend_ControlFlowOp<"If", [NoRegionArguments]> {
  let summary = "runs one of two subgraphs, chosen by a boolean";
  let description = [{
    Runs `then_branch` when the single element of `cond` is true, else
    `else_branch`; the results are what the branch that ran yields. The
    branches read values of the enclosing graph directly (ONNX's outer-scope
    names). An ONNX `If` whose condition is known when the model is imported
    is not an `ascend.If`: the importer inlines the branch that runs.

    Example:
    ```mlir
    %r = ascend.If %c {name = "/If"} : (tensor<i1>) -> tensor<4xf32> {
      %a = ascend.Relu %x {name = "/then/Relu"} : tensor<4xf32>
      ascend.Yield %a : tensor<4xf32>
    } else {
      %b = ascend.Neg %x {name = "/else/Neg"} : tensor<4xf32>
      ascend.Yield %b : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins RankedTensorOf<[I1]>:$cond, StrAttr:$name);
  let results = (outs Variadic<AnyTensor>:$outputs);
  let regions = (region SizedRegion<1>:$then_branch, SizedRegion<1>:$else_branch);
  let assemblyFormat = [{
    $cond attr-dict `:` functional-type($cond, $outputs) $then_branch `else` $else_branch
  }];
}

def Ascend_LoopOp : Ascend_ControlFlowOp<"Loop", [AttrSizedOperandSegments]> {
  let summary = "runs a subgraph until a trip count or a condition stops it";
  let description = [{
    ONNX's `Loop`. The body's block arguments are the iteration number
    (`tensor<i64>`), the condition (`tensor<i1>`) and the loop-carried values;
    it yields the next condition, the next loop-carried values and then one
    slice per scan output. The results are the final loop-carried values and
    the scan outputs (the slices stacked along a new leading axis).
    `max_trip_count` and `condition` are optional, as in ONNX.
    `arg_names` keeps the ONNX body's input names, so reports name the
    block arguments as the model does.

    Example:
    ```mlir
    %n = ascend.Loop max_trip_count(%m : tensor<i64>) initial(%x : tensor<4xf32>)
        {name = "/Loop"} -> tensor<4xf32> {
    ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<4xf32>):
      %w = ascend.Relu %v {name = "/body/Relu"} : tensor<4xf32>
      ascend.Yield %c, %w : tensor<i1>, tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Optional<RankedTensorOf<[I64]>>:$max_trip_count,
                       Optional<RankedTensorOf<[I1]>>:$condition,
                       Variadic<AnyTensor>:$initial, StrAttr:$name,
                       OptionalAttr<StrArrayAttr>:$arg_names);
  let results = (outs Variadic<AnyTensor>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`max_trip_count` `(` $max_trip_count^ `:` type($max_trip_count) `)`)?
    (`condition` `(` $condition^ `:` type($condition) `)`)?
    (`initial` `(` $initial^ `:` type($initial) `)`)?
    attr-dict `->` type($outputs) $body
  }];
  let extraClassDeclaration = [{
    /// How many results are loop-carried values (the rest are scan outputs).
    unsigned getNumCarried() { return getInitial().size(); }
  }];
}

def Ascend_ScanOp : Ascend_ControlFlowOp<"Scan", [AttrSizedOperandSegments]> {
  let summary = "runs a subgraph once per slice of its scan inputs";
  let description = [{
    ONNX's `Scan` (opset 9 and later). The body's block arguments are the
    state values and one slice of each scan input; it yields the next state
    values and one slice per scan output. The results are the final states
    and the scan outputs. Axes and directions are ONNX's attributes, absent
    when they are the defaults (axis 0, forward).

    Example:
    ```mlir
    %s, %ys = ascend.Scan initial(%s0 : tensor<4xf32>) inputs(%xs : tensor<3x4xf32>)
        {name = "/Scan"} -> tensor<4xf32>, tensor<3x4xf32> {
    ^bb0(%s: tensor<4xf32>, %x: tensor<4xf32>):
      %t = ascend.Add %s, %x {name = "/body/Add"}
          : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      ascend.Yield %t, %t : tensor<4xf32>, tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<AnyTensor>:$initial, Variadic<AnyTensor>:$scan_inputs,
                       StrAttr:$name,
                       OptionalAttr<DenseI64ArrayAttr>:$scan_input_axes,
                       OptionalAttr<DenseI64ArrayAttr>:$scan_input_directions,
                       OptionalAttr<DenseI64ArrayAttr>:$scan_output_axes,
                       OptionalAttr<DenseI64ArrayAttr>:$scan_output_directions,
                       OptionalAttr<StrArrayAttr>:$arg_names);
  let results = (outs Variadic<AnyTensor>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`initial` `(` $initial^ `:` type($initial) `)`)?
    `inputs` `(` $scan_inputs `:` type($scan_inputs) `)`
    attr-dict `->` type($outputs) $body
  }];
}

#endif // ASCENDPREC_DIALECT_ASCEND_IR_ASCENDCONTROLFLOW_TD
