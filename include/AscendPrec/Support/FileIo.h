//===- FileIo.h - whole reads and writes on a descriptor --------*- C++ -*-===//
//
// The cache and the output folder read and write through descriptors they
// opened themselves (O_NOFOLLOW, O_NONBLOCK), and report the system's own
// reason on failure ("No space left on device").
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SUPPORT_FILEIO_H
#define ASCENDPREC_SUPPORT_FILEIO_H

#include <cerrno>
#include <cstddef>
#include <string>

#include <unistd.h>

namespace ascendprec {

/// Writes all `size` bytes to `fd`, retrying after signals; 0, or the
/// errno of the write that failed.
inline int writeAll(int fd, const char *data, size_t size) {
  for (size_t done = 0; done < size;) {
    ssize_t put = ::write(fd, data + done, size - done);
    if (put < 0 && errno == EINTR)
      continue;
    if (put <= 0)
      return put < 0 ? errno : EIO;
    done += static_cast<size_t>(put);
  }
  return 0;
}

/// Reads exactly `size` bytes from `fd` into `bytes`; false on a short read
/// or an error.
inline bool readExactly(int fd, std::string &bytes, size_t size) {
  bytes.resize(size);
  for (size_t done = 0; done < size;) {
    ssize_t got = ::read(fd, bytes.data() + done, size - done);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return false;
    done += static_cast<size_t>(got);
  }
  return true;
}

} // namespace ascendprec

#endif // ASCENDPREC_SUPPORT_FILEIO_H
