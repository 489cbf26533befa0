//===- PlannedIRWriter.cpp - planned.mlir without copies of the weights ---===//

#include "AscendPrec/Session/PlannedIRWriter.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"

#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <mutex>

namespace ascendprec::session {

namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";

void printHexByte(llvm::raw_ostream &os, unsigned char byte) {
  os << kHexDigits[byte >> 4] << kHexDigits[byte & 0xF];
}

/// A resource key as MLIR's parser reads it: a bare identifier when it is
/// one, else a quoted string with `\XX` escapes.
void printKey(llvm::raw_ostream &os, llvm::StringRef key) {
  bool bare = !key.empty() && (std::isalpha(static_cast<unsigned char>(key[0])) || key[0] == '_');
  for (char c : key)
    bare &= std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
  if (bare) {
    os << key;
    return;
  }
  os << '"';
  for (unsigned char c : key) {
    if (c == '"' || c == '\\' || c < 0x20 || c >= 0x7F)
      printHexByte(os << '\\', c);
    else
      os << c;
  }
  os << '"';
}

/// MLIR's blob text: "0x", the alignment as 4 little-endian bytes, the data;
/// all in hex, written in pieces.
void printBlob(llvm::raw_ostream &os, const mlir::AsmResourceBlob &blob) {
  uint32_t alignment = static_cast<uint32_t>(blob.getDataAlignment());
  os << "\"0x";
  for (int i = 0; i < 4; ++i)
    printHexByte(os, (alignment >> (8 * i)) & 0xFF);
  llvm::ArrayRef<char> data = blob.getData();
  char chunk[8192];
  for (size_t at = 0; at < data.size();) {
    size_t n = 0;
    for (; n + 2 <= sizeof chunk && at < data.size(); ++at) {
      unsigned char byte = static_cast<unsigned char>(data[at]);
      chunk[n++] = kHexDigits[byte >> 4];
      chunk[n++] = kHexDigits[byte & 0xF];
    }
    os.write(chunk, n);
  }
  os << '"';
}

/// Swaps every constant's weights for a blob-less stand-in, so that MLIR's
/// printer has no data to print: one shared `__elided__` handle, or one per
/// blob whose bytes the writer streams (returned in order, with its blob).
/// planned.mlir and kernels.mlir are printed at once on two threads, and
/// only one of them may make the shared `__elided__` entry.
llvm::MapVector<mlir::AsmResourceBlob *, std::optional<mlir::DenseResourceElementsHandle>>
swapWeightsForStandIns(mlir::ModuleOp module, bool fullConstants) {
  static std::mutex standInsMutex;
  std::lock_guard<std::mutex> lock(standInsMutex);
  mlir::MLIRContext *context = module.getContext();
  auto &manager = mlir::DenseResourceElementsHandle::getManagerInterface(context);
  std::optional<mlir::DenseResourceElementsHandle> elided;
  llvm::MapVector<mlir::AsmResourceBlob *, std::optional<mlir::DenseResourceElementsHandle>>
      streamed;
  module.walk([&](ascendprec::ascend::ConstOp constant) {
    auto value = llvm::dyn_cast<mlir::DenseResourceElementsAttr>(constant.getValue());
    mlir::AsmResourceBlob *blob = value ? value.getRawHandle().getBlob() : nullptr;
    if (!blob)
      return;
    std::optional<mlir::DenseResourceElementsHandle> *standIn = &elided;
    if (fullConstants)
      standIn = &streamed[blob];
    if (!*standIn) {
      // Every file written in one run shares the one `__elided__` entry
      // (inserting it again would name it `__elided___1`).
      mlir::DialectResourceBlobManager::BlobEntry *existing =
          fullConstants ? nullptr : manager.getBlobManager().lookup("__elided__");
      if (existing && !existing->getBlob())
        *standIn = mlir::DenseResourceElementsHandle(
            existing, context->getLoadedDialect<mlir::BuiltinDialect>());
      else
        *standIn = manager.insert(fullConstants ? value.getRawHandle().getKey()
                                                : llvm::StringRef("__elided__"));
    }
    constant.setValueAttr(mlir::DenseResourceElementsAttr::get(value.getType(), **standIn));
  });

  return streamed;
}

} // namespace

namespace {

/// Takes the fp32 reference's values (ascend.reference_value) off the
/// converted constants while the module is printed: they are the run's,
/// not the plan's, and would write every converted weight twice.
class ReferenceValuesHidden {
public:
  explicit ReferenceValuesHidden(mlir::ModuleOp module) {
    module.walk([&](ascend::ConstOp constant) {
      if (mlir::Attribute value = constant->removeAttr(ascend::kReferenceValueAttr))
        hidden.emplace_back(constant, value);
    });
  }
  ~ReferenceValuesHidden() {
    for (auto &[constant, value] : hidden)
      constant->setAttr(ascend::kReferenceValueAttr, value);
  }

private:
  std::vector<std::pair<ascend::ConstOp, mlir::Attribute>> hidden;
};

} // namespace

bool writePlannedIR(const std::string &path, mlir::ModuleOp module, bool fullConstants,
                    std::string &error) {
  ReferenceValuesHidden referenceValues(module);
  llvm::MapVector<mlir::AsmResourceBlob *, std::optional<mlir::DenseResourceElementsHandle>>
      streamed = swapWeightsForStandIns(module, fullConstants);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    error = "cannot write '" + path + "': " + ec.message();
    return false;
  }
  mlir::OpPrintingFlags flags;
  // The caller verified the module; without this the printer verifies it
  // again to decide between the custom and the generic form.
  flags.assumeVerified();
  if (!fullConstants)
    flags.elideLargeElementsAttrs(kElideConstantsLargerThan);
  module.print(os, flags);
  if (!streamed.empty()) {
    os << "\n{-#\n  dialect_resources: {\n    builtin: {\n";
    bool first = true;
    for (auto &[blob, handle] : streamed) {
      os << (first ? "" : ",\n") << "      ";
      printKey(os, handle->getKey());
      os << ": ";
      printBlob(os, *blob);
      first = false;
    }
    os << "\n    }\n  }\n#-}\n";
  }
  os.close();
  if (os.has_error()) {
    error = "cannot write '" + path + "': " + os.error().message();
    os.clear_error();
    return false;
  }
  return true;
}

} // namespace ascendprec::session
