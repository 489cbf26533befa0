//===- RowKernels.h - shared pieces of the row-wise vector kernels --------===//

#ifndef ASCENDPREC_LIB_CONVERSION_ASCENDTOKERNEL_ROWKERNELS_H
#define ASCENDPREC_LIB_CONVERSION_ASCENDTOKERNEL_ROWKERNELS_H

#include "AscendPrec/Conversion/AscendToKernel/AscendToKernel.h"
#include "LoweringTables.h"

#include <array>

namespace ascendprec::kernel {

class KernelBuilder;

/// A shape as [outer, reduced, inner] around contiguous `axes` (all axes
/// when empty; negative axes count from the end; axes of size 1 do not
/// count); nothing otherwise.
std::optional<std::array<int64_t, 3>> rowView(ShapedType type, ArrayRef<int64_t> axes);

/// Rewrites a sum, mean, maximum, minimum or product over axes that are not
/// adjacent in memory (NCHW's N, H and W) into a chain of reductions over
/// adjacent runs, the last runs first.
void splitNonContiguousReductions(ModuleOp module);

/// The accumulation dtype of a `kind` reduction of `data` (16-bit sums in
/// fp32 unless the impl mode is super_performance or keep_fp16).
Type accumulationType(Operation *op, StringRef kind, Type data);

/// The dtype a vector op computes in and whether it adds a Newton step
/// (IM-7).
std::pair<Type, bool> vectorCompute(Operation *op, StringRef kind, Type dataType);

/// The `akernel.vop` of the elementwise `op` (`kind`, its table entry) from
/// `inputs` into `out`, computing on `data` as the op's own kernel does:
/// the compute dtype and Newton step of vectorCompute, the kind's constants.
VectorOp emitElementwise(OpBuilder &b, Location loc, Operation *op, const ElementwiseKind &kind,
                         ValueRange inputs, Value out, Type data);

/// An `ascend.Cast`'s conversion of `input` into `out` as its own kernel
/// does it: a copy when the dtypes match, else a vcast rounding as ONNX's
/// Cast does (the model's own narrowing Cast rounds in the fp32 reference
/// too).
void emitCast(OpBuilder &b, Location loc, Operation *cast, Value input, Value out);

/// Reduces `x` ([outer, reduced, inner] in GM) over its middle dimension into
/// `y` ([outer, 1, inner]): whole rows in UB when they fit, else in chunks
/// (atomically across cores, or sequentially under deterministic=1).
void buildRowReduction(KernelBuilder &kb, const LoweringContext &context, Value x, Value y,
                       std::array<int64_t, 3> view, StringRef kind, Type acc);

/// Calls `body(offset, size, first)` for each chunk of [0, total): a loop
/// over the whole chunks of `chunk`, then the shorter tail once, with
/// buffers of its own size (a load past the row's end would read zeros into
/// a max, min or product). `first` (i1) is true for the first chunk.
void forEachChunk(KernelBuilder &kb, int64_t total, int64_t chunk,
                  function_ref<void(Value offset, int64_t size, Value first)> body);

/// `total` = `part` for the first chunk, else combine(`total`, `part`)
/// (`add`, `max`, `min`, `mul`), in `acc`.
void accumulateChunk(OpBuilder &b, Location loc, Value first, StringRef combine, Value part,
                     Value total, Type acc);

/// The longest chunk of a row of `total` elements whose buffers, at
/// `bytesPerElement` per element (a whole chunk's and the tail's), and
/// `fixedBytes` fit `ub`; 0 when none does.
int64_t chunkThatFits(int64_t total, int64_t bytesPerElement, int64_t fixedBytes, int64_t ub);

/// ArgMaxV2 / ArgMin (`kind` argmax / argmin) over rows of `x` ([outer,
/// reduced, inner]) too long for UB, in chunks (ArgChunks.cpp); only when
/// canChunkArgReduction.
bool canChunkArgReduction(std::array<int64_t, 3> view, Type data, Type index,
                          const LoweringContext &context);
void buildChunkedArgReduction(KernelBuilder &kb, const LoweringContext &context, Value x, Value y,
                              std::array<int64_t, 3> view, StringRef kind);

std::optional<std::string> whyReductionNotLowerable(Operation *op, const LoweringContext &context);
std::optional<std::string> whyNormalizationNotLowerable(Operation *op,
                                                        const LoweringContext &context);
void populateNormalizationLoweringPatterns(RewritePatternSet &patterns, LoweringContext &context);
std::optional<std::string> whySoftmaxNotLowerable(Operation *op, const LoweringContext &context);
void populateSoftmaxLoweringPatterns(RewritePatternSet &patterns, LoweringContext &context);
std::optional<std::string> whyPoolingNotLowerable(Operation *op, const LoweringContext &context);
void populatePoolingLoweringPatterns(RewritePatternSet &patterns, LoweringContext &context);
std::optional<std::string> whyInterpolationNotLowerable(Operation *op,
                                                        const LoweringContext &context);
void populateInterpolationLoweringPatterns(RewritePatternSet &patterns,
                                           LoweringContext &context);
std::optional<std::string> whyRecurrentNotLowerable(Operation *op);
std::optional<std::string> whySelectionNotLowerable(Operation *op, const LoweringContext &context);
void populateSelectionLoweringPatterns(RewritePatternSet &patterns, LoweringContext &context);
void populateRecurrentLoweringPatterns(RewritePatternSet &patterns, LoweringContext &context);

} // namespace ascendprec::kernel

#endif // ASCENDPREC_LIB_CONVERSION_ASCENDTOKERNEL_ROWKERNELS_H
