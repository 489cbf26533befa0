//===- CheckNodeNames.cpp - unique node names -----------------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Allocator.h"

namespace ascendprec::ascend {
#define GEN_PASS_DEF_CHECKNODENAMES
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h.inc"
} // namespace ascendprec::ascend

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

namespace {
struct CheckNodeNamesPass
    : ascendprec::ascend::impl::CheckNodeNamesBase<CheckNodeNamesPass> {
  using CheckNodeNamesBase::CheckNodeNamesBase;

  void runOnOperation() override {
    // Every name in use, node names and absorbed names alike, mapped to the
    // op that used it first (bump-allocated: one malloc and free per name
    // showed on 200k-op graphs).
    llvm::StringMap<Operation *, llvm::BumpPtrAllocator> firstUse;
    SmallVector<AscendOpInterface> duplicates;
    getOperation().walk([&](AscendOpInterface op) {
      SmallVector<StringRef> names = op.getOriginalNames();
      bool nodeNameIsNew = firstUse.try_emplace(names.front(), op).second;
      for (StringRef absorbed : llvm::drop_begin(names))
        firstUse.try_emplace(absorbed, op);
      if (!nodeNameIsNew)
        duplicates.push_back(op);
    });

    bool failedAny = false;
    for (AscendOpInterface op : duplicates) {
      StringRef name = op.getNodeName();
      Operation *first = firstUse.lookup(name);
      if (!renameDuplicates) {
        InFlightDiagnostic diag =
            op->emitError() << "node name '" << name
                            << "' is used by more than one op; Opname::, "
                               "keep_dtype and [ByNodeName] entries need "
                               "unique names (rerun with "
                               "--prec-check-node-names=rename-duplicates=true "
                               "to rename)";
        diag.attachNote(first->getLoc()) << "first used here";
        failedAny = true;
        continue;
      }
      std::string fresh;
      for (unsigned suffix = 1;; ++suffix) {
        fresh = (name + "_" + Twine(suffix)).str();
        if (!firstUse.count(fresh))
          break;
      }
      op->emitRemark() << "renamed duplicate node name '" << name << "' to '"
                       << fresh << "'";
      firstUse.try_emplace(fresh, op);
      op->setAttr("name", StringAttr::get(op->getContext(), fresh));
    }
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
