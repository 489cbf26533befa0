//===- InputFile.cpp - reading models and config files safely -------------===//

#include "AscendPrec/Policy/InputFile.h"

#include "AscendPrec/Policy/Diagnostics.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ascendprec::policy {

std::optional<InputFile> InputFile::open(const std::string &path, std::string &why) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused
  // below anyway.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    int error = errno;
    struct stat info;
    if (error == ENOENT)
      why = ::lstat(path.c_str(), &info) == 0 ? "it is a symlink to a missing file"
                                              : "no such file";
    else if (error == EACCES)
      why = "permission denied";
    else
      why = std::strerror(error);
    return std::nullopt;
  }
  struct stat info;
  if (::fstat(fd, &info) != 0) {
    why = std::strerror(errno);
    ::close(fd);
    return std::nullopt;
  }
  if (!S_ISREG(info.st_mode)) {
    why = S_ISDIR(info.st_mode) ? "it is a folder, not a file"
                                : "it is not a regular file (a device, pipe or socket)";
    ::close(fd);
    return std::nullopt;
  }
  // Back to blocking reads for a regular file (a no-op on Linux; portable).
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return InputFile(fd, static_cast<size_t>(info.st_size));
}

InputFile::InputFile(InputFile &&other) noexcept : fd(other.fd), bytes(other.bytes) {
  other.fd = -1;
}

InputFile::~InputFile() {
  if (fd >= 0)
    ::close(fd);
}

bool InputFile::read(std::string &text, std::string &why) {
  text.resize(bytes);
  size_t done = 0;
  while (done < bytes) {
    ssize_t got = ::pread(fd, text.data() + done, bytes - done, static_cast<off_t>(done));
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      why = std::strerror(errno);
      return false;
    }
    if (got == 0)
      break; // truncated since it was opened: read what is there
    done += static_cast<size_t>(got);
  }
  text.resize(done);
  return true;
}

std::string normalizeConfigText(std::string text) {
  size_t start = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  if (start == 0 && text.find('\r') == std::string::npos)
    return text;
  std::string out;
  out.reserve(text.size());
  for (size_t i = start; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
    } else {
      out += '\n';
      if (i + 1 < text.size() && text[i + 1] == '\n')
        ++i;
    }
  }
  return out;
}

bool readFile(const std::string &path, std::string &text,
              DiagnosticList &diags, const SourceLoc &referencedFrom,
              const std::string &rule, const std::string &option) {
  std::string why;
  std::optional<InputFile> file = InputFile::open(path, why);
  if (file && file->read(text, why)) {
    text = normalizeConfigText(std::move(text));
    return true;
  }
  std::string shownPath = "'" + escapeForDisplay(path) + "'";
  if (option.empty())
    diags.error(referencedFrom.isKnown() ? referencedFrom : SourceLoc{path},
                "cannot read " + shownPath + ": " + why, rule);
  else
    diags.error(referencedFrom.isKnown() ? referencedFrom : SourceLoc{"<command line>"},
                "cannot read the --" + option + " file " + shownPath + ": " + why, rule);
  return false;
}

} // namespace ascendprec::policy
