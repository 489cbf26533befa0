//===- ModelIo.h - ATC's --input_fp16_nodes and --output_type -------------===//
//
// ATC feeds the inputs named by --input_fp16_nodes as float16 and returns
// the outputs --output_type names in the dtype it gives. Here both become
// the function's signature, with a Cast to or from the model's own dtype
// (planning then keeps, moves or removes those Casts like any other).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SESSION_MODELIO_H
#define ASCENDPREC_SESSION_MODELIO_H

#include "AscendPrec/Policy/ModelInputs.h"
#include "mlir/IR/BuiltinOps.h"

namespace ascendprec::session {

/// Applies --input_fp16_nodes and --output_type to `module`'s entry function.
/// Inputs are found by their model name (the `ascend.name` argument
/// attribute, else `arg<N>`), outputs by producing node and result index.
/// Reports unknown names with the known ones and fails.
mlir::LogicalResult applyModelIo(mlir::ModuleOp module,
                                 const policy::ModelInputOptions &options);

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_MODELIO_H
