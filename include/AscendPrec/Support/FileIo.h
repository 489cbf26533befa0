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

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ascendprec {

/// A file opened for reading as one opens what others may have planted (a
/// cache entry, an earlier output): never through a symbolic link, never
/// blocking (a FIFO), and fstat-ed before a byte is read. `fd` is -1 and
/// `error` the errno (ELOOP: a link) when the open or fstat failed; the
/// descriptor is closed on destruction.
struct UntrustedFile {
  explicit UntrustedFile(const char *path)
      : fd(::open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) {
    if (fd >= 0 && ::fstat(fd, &info) != 0) {
      error = errno;
      ::close(fd);
      fd = -1;
    } else if (fd < 0) {
      error = errno;
    }
  }
  ~UntrustedFile() {
    if (fd >= 0)
      ::close(fd);
  }
  UntrustedFile(const UntrustedFile &) = delete;
  UntrustedFile &operator=(const UntrustedFile &) = delete;

  bool isRegular() const { return fd >= 0 && S_ISREG(info.st_mode); }

  int fd;
  int error = 0;
  struct stat info {};
};

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
