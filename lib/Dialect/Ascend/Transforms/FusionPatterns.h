//===- FusionPatterns.h - graph fusion passes by CANN's names -------------===//
//
// One class per CANN fusion pass. A pattern only matches and builds; the
// driver (GraphFusion.cpp) decides whether a match may apply (pins, FU-2),
// records the absorbed names and the pass on the fused op, and erases what
// was absorbed.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_TRANSFORMS_FUSIONPATTERNS_H
#define ASCENDPREC_LIB_TRANSFORMS_FUSIONPATTERNS_H

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Support/MLIR.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Allocator.h"

#include <functional>
#include <memory>
#include <optional>

namespace ascendprec::ascend {

/// Every node name in the module, so that a constant fusion creates gets a
/// name of its own without a walk per match.
class NodeNames {
public:
  explicit NodeNames(Operation *module);
  /// `base` if unused, else `base_1`, `base_2`, ...; the result is taken.
  std::string claim(StringRef base);
  void release(StringRef name) { used.erase(name); }

private:
  /// Bump-allocated: a model's worth of names is built and dropped per run
  /// (a malloc and free per name was a tenth of fusion on a 200k-op graph).
  llvm::StringSet<llvm::BumpPtrAllocator> used;
};

struct FusionMatch {
  /// The op whose node name the fused op takes: the Conv or MatMul a bias
  /// joins; for a pattern replaced by a new op (LayerNorm, Gelu, ...), the
  /// op whose output the new op produces.
  AscendOpInterface anchor;
  /// Ops the fused op replaces besides the anchor, in graph order.
  SmallVector<AscendOpInterface> absorbed;
  /// The op whose first result the fused op's result replaces: the last op
  /// of the match (for the bias fusions, the last absorbed op).
  Operation *root = nullptr;
  /// The op type of the fused op when it is not the anchor's (LayerNorm...).
  StringRef fusedOpType;
  /// Builds the fused op at the builder's insertion point (just before the
  /// last absorbed op); its attributes are completed by the driver. Returns
  /// null when the match cannot be built after all (nothing was changed).
  std::function<Operation *(OpBuilder &, NodeNames &)> build;
};

/// CANN's names of the pattern fusions (the policy table's keys).
inline constexpr llvm::StringLiteral kLayerNormFusion = "LayerNormONNXFusionPass";
inline constexpr llvm::StringLiteral kGeluFusion = "GeluONNXFusionPass";
inline constexpr llvm::StringLiteral kHardSwishFusion = "HardSwishFusionPass";
inline constexpr llvm::StringLiteral kSoftmaxFusion = "SoftmaxFusionPass";

class FusionPattern {
public:
  virtual ~FusionPattern() = default;
  /// CANN's name of the pass (the policy table's key).
  virtual StringRef name() const = 0;
  /// A match anchored at `op`, if there is one.
  virtual std::optional<FusionMatch> match(AscendOpInterface op) const = 0;
};

std::unique_ptr<FusionPattern> createConvBatchnormFusionPass();
std::unique_ptr<FusionPattern> createAABiasaddConvFusion();
std::unique_ptr<FusionPattern> createMatMulBiasAddFusionPass();
std::unique_ptr<FusionPattern> createLayerNormFusion();
std::unique_ptr<FusionPattern> createGeluFusion();
std::unique_ptr<FusionPattern> createHardSwishFusion();
std::unique_ptr<FusionPattern> createSoftmaxFusion();

/// CANN's EinsumPass, which rewrites one op into several rather than
/// fusing several into one (EinsumDecomposition.cpp).
inline constexpr llvm::StringLiteral kEinsumPass = "EinsumPass";

/// Rewrites a two-operand Einsum with static shapes into ReduceSum,
/// Transpose, Reshape and one BatchMatMulV2 (which keeps its name), as
/// EinsumPass does; false when the equation stays an Einsum.
bool decomposeEinsum(EinsumOp einsum, NodeNames &names);

/// CANN's ConcatExt2FusionPass, which splits a ConcatV2 of more inputs than
/// its kernel takes into a tree (ConcatSplit.cpp, ST-2).
inline constexpr llvm::StringLiteral kConcatSplitPass = "ConcatExt2FusionPass";
inline constexpr int64_t kConcatMaxInputs = 63;

/// Splits a ConcatV2 of static shape with more than 63 inputs into children
/// of 63 and a base under its name; false when it has at most 63.
bool splitWideConcat(ConcatV2Op concat, NodeNames &names);

/// Every pattern, keyed by CANN's name.
std::unique_ptr<FusionPattern> createFusionPattern(StringRef name);

/// The single user of `value`'s defining op's only result, if there is
/// exactly one use; fusion never absorbs a value someone else also reads.
Operation *soleUser(Value value);

} // namespace ascendprec::ascend

#endif // ASCENDPREC_LIB_TRANSFORMS_FUSIONPATTERNS_H
