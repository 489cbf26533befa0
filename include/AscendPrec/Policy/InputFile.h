//===- InputFile.h - reading models and config files safely ---------------===//
//
// Every file AscendPrec reads (a model, a config file, the operator library)
// goes through here: it must be a regular file (after symlinks), so that a
// device such as /dev/zero, a pipe or a folder is refused with a reason, and
// reads stop at the size the file had when it was opened.
//
// Plain C++ and POSIX; no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_INPUTFILE_H
#define ASCENDPREC_POLICY_INPUTFILE_H

#include "AscendPrec/Policy/Diagnostics.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ascendprec::policy {

/// An open, checked input file. Movable, closes on destruction.
class InputFile {
public:
  /// Opens `path`. On failure returns nothing and sets `why` to the reason,
  /// phrased to follow "cannot read 'path': " ("no such file", "it is a
  /// folder, not a file", "it is not a regular file (a device, pipe or
  /// socket)", "permission denied", ...).
  static std::optional<InputFile> open(const std::string &path, std::string &why);

  InputFile(InputFile &&other) noexcept;
  InputFile &operator=(InputFile &&other) = delete;
  InputFile(const InputFile &) = delete;
  ~InputFile();

  int descriptor() const { return fd; }
  /// The size when opened; reads never go past it.
  size_t size() const { return bytes; }
  /// Reads the whole file (up to size()) into `text`.
  bool read(std::string &text, std::string &why);

private:
  InputFile(int fd, size_t bytes) : fd(fd), bytes(bytes) {}
  int fd = -1;
  size_t bytes = 0;
};

/// Config text as the parsers expect it: a leading UTF-8 byte-order mark
/// dropped, and CR-LF or CR-only line ends turned into LF (editors on
/// Windows and classic Mac OS write them). Column numbers are unchanged.
std::string normalizeConfigText(std::string text);

/// Reads the config file `path` into `text` (InputFile.h: regular files
/// only, BOM and CR line ends normalized). A missing or unreadable file is
/// reported at `referencedFrom` (where the path was given; the file itself
/// if unknown), naming the `option` that gave it when there is one.
bool readFile(const std::string &path, std::string &text,
              DiagnosticList &diags, const SourceLoc &referencedFrom = {},
              const std::string &rule = {}, const std::string &option = {});

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_INPUTFILE_H
