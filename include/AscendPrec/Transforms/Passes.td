//===- Passes.td - AscendPrec transformation passes --------*- tablegen -*-===//

#ifndef ASCENDPREC_TRANSFORMS_PASSES_TD
#define ASCENDPREC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CheckNodeNames : Pass<"prec-check-node-names", "::mlir::ModuleOp"> {
  let summary = "Requires every ascend op to have a unique node name";
  let description = [{
    Node names are the keys of `Opname::` lines in customize_dtypes, of name
    lines in keep_dtype and of `[ByNodeName]` sections in op_precision_mode,
    and the names the report uses. Two ops with one name would make those
    entries ambiguous, so this pass rejects duplicates: the second use gets
    an error with a note at the first.

    With `rename-duplicates=true` the first use keeps its name and every later
    one is renamed to `<name>_<n>` (the smallest free `n`), with a remark
    saying so. Ops fused into another (`absorbed`) count as uses too.

    Example:
    ```
    prec-opt --prec-check-node-names=rename-duplicates=true model.mlir
    ```
  }];
  let options = [
    Option<"renameDuplicates", "rename-duplicates", "bool",
           /*default=*/"false",
           "Rename later duplicates to <name>_<n> instead of failing">
  ];
}

#endif // ASCENDPREC_TRANSFORMS_PASSES_TD
