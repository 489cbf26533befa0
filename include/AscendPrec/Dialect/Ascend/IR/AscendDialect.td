//===- AscendDialect.td - The `ascend` graph dialect -------*- tablegen -*-===//
//
// Graph-level operators named after Ascend IR op types. Each op carries its
// node name from the original model, an optional implementation mode and,
// after planning, the precision decision made for it.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_ASCENDDIALECT_TD
#define ASCENDPREC_DIALECT_ASCEND_IR_ASCENDDIALECT_TD

include "mlir/IR/OpBase.td"

def Ascend_Dialect : Dialect {
  let name = "ascend";
  let cppNamespace = "::ascendprec::ascend";
  let summary = "Ascend IR graph operators with precision and impl-mode attributes";
  let description = [{
    The `ascend` dialect models a model graph as CANN's Graph Engine sees it:
    one op per Ascend IR operator, named after its op type (`ascend.Conv2D`,
    `ascend.MatMulV2`, `ascend.SoftmaxV2`, ...), so the op type that
    mixlists, `OpType::` lines and `[ByOpType]` sections use is the op's own
    mnemonic. Operators without a dedicated op use `ascend.generic`, which
    carries an arbitrary op type string.

    Every op carries:
    * `name`: the node name in the original model (the key of `Opname::`
      lines, keep_dtype name lines and `[ByNodeName]` sections);
    * `impl_mode` (optional): an `#ascend.impl_mode<...>` value (rule IM-4);
    * `precision` (optional): the `#ascend.precision<...>` decision that
      planning attaches, with the rule ID and source that made it;
    * `absorbed` (optional): node names of ops fused into this one (FU-3);
    * `fused_by` (optional): the fusion passes that fused them, by CANN's
      names (FU-1), in the order they ran.

    Tensors are NCHW where a layout matters. Dynamic dimensions (`?`) are
    accepted everywhere; shape checks apply only to the static parts.
  }];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

#endif // ASCENDPREC_DIALECT_ASCEND_IR_ASCENDDIALECT_TD
