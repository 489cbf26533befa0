//===- OutputDirectory.h - all-or-nothing output folders ------------------===//
//
// prec-compile writes every output into a fresh temporary folder beside the
// requested one and moves it into place only when everything succeeded, so an
// error leaves neither a partial folder nor a half-updated old one.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_TOOLS_PREC_COMPILE_OUTPUTDIRECTORY_H
#define ASCENDPREC_TOOLS_PREC_COMPILE_OUTPUTDIRECTORY_H

#include <string>

namespace ascendprec::driver {

class OutputDirectory {
public:
  /// Prepares a temporary folder for `finalPath`; check `error()`.
  explicit OutputDirectory(std::string finalPath);
  /// Removes the temporary folder unless commit() succeeded.
  ~OutputDirectory();

  const std::string &error() const { return errorMessage; }
  /// Where to write `name` before commit().
  std::string path(const std::string &name) const;
  /// Replaces `finalPath` (and whatever was there) with the written folder.
  bool commit();

private:
  std::string finalPath, tempPath, errorMessage;
  bool committed = false;
};

} // namespace ascendprec::driver

#endif // ASCENDPREC_TOOLS_PREC_COMPILE_OUTPUTDIRECTORY_H
