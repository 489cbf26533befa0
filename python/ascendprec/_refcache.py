"""The fp32 reference's outputs, cached on disk per sample.

A dataset's reference is run once per sample and shared by every plan,
mode and search step, in this process and the next: the outputs are kept
under a key made of the model's bytes, the options the reference depends
on, the sample's arrays and the package's version. Entries are written to
a temporary name and renamed, so a reader never sees half a file, and the
cache deletes nothing.

The trust model (docs/reference/datasets.md): an entry is used only if
it is a regular file owned by the user, no larger than any entry put()
writes, whole, and its sha256 matches its content. Anything else (a
flipped bit, a truncated file, a directory, a FIFO, a symlink, another
user's file) is skipped with one warning naming it, and its reference is
computed again: a regular file or symlink is then replaced by rename
(never written through), anything else is left alone and that sample's
reference goes uncached. Entries are opened without following symlinks
and without blocking, and checked with fstat before a byte is read. The
folder is created 0700; one that is not the user's or that others may
write is not used at all (as ssh treats ~/.ssh).
"""

import errno
import hashlib
import json
import os
import secrets
import stat
import threading
import warnings

import numpy

FORMAT = "ascendprec-reference-3"


class ReferenceCacheWarning(UserWarning):
    """A reference cache entry or folder that is not used (damaged, not a
    regular file, another user's, writable by others): the references are
    computed again."""


def default_folder():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ascendprec", "references")


def sample_digest(inputs):
    """A digest of the arrays by name: dtype, shape and bytes."""
    digest = hashlib.sha256()
    for name in sorted(inputs):
        array = numpy.ascontiguousarray(inputs[name])
        digest.update(name.encode())
        digest.update(array.dtype.str.encode())
        digest.update(repr(array.shape).encode())
        digest.update(array.view(numpy.uint8).reshape(-1) if array.size else b"")
    return digest.hexdigest()


def reference_key(model_digest, options, sample):
    """The entry of one sample's reference under one plan's options."""
    text = json.dumps({"format": FORMAT, "model": model_digest, "options": options,
                       "sample": sample}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


# put() writes no entry larger than this (a sample whose outputs exceed it
# goes uncached), so a larger file cannot be an entry and is not read:
# a symlink or hard link to something huge, or a file that kept growing.
# 4 GiB is far above any one sample's outputs in practice.
MAX_ENTRY = 4 << 30

_READ = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC

# One warning per file or folder per process (a folder is looked at once
# per chunk of samples, an entry once per mode).
_warned = set()
_warned_lock = threading.Lock()


def _warn_once(path, message):
    with _warned_lock:
        if path in _warned:
            return
        _warned.add(path)
    warnings.warn(message, ReferenceCacheWarning, stacklevel=3)


def _kind(mode):
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISLNK(mode):
        return "a symlink"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _untrusted(status):
    """Why a folder of the cache is not to be trusted (its fstat), or ""."""
    if status.st_uid != os.geteuid():
        return "is owned by uid %d, not by you (uid %d)" % (status.st_uid, os.geteuid())
    if status.st_mode & 0o022:
        return ("is writable by %s (mode %04o): a cache others can write is not used; "
                "chmod go-w it" % ("group and others" if status.st_mode & 0o022 == 0o022
                                   else "group" if status.st_mode & 0o020 else "others",
                                   stat.S_IMODE(status.st_mode)))
    return ""


class ReferenceCache:
    """A folder of entries (None: no cache)."""

    def __init__(self, folder):
        self.folder = folder
        self.hits = 0
        self.misses = 0
        if folder:
            self.folder = self._trusted(os.fspath(folder))

    @staticmethod
    def _trusted(folder):
        """`folder` (created 0700 when missing) if it may be used, else None
        after one warning."""
        try:
            parent = os.path.dirname(os.path.abspath(folder))
            os.makedirs(parent, exist_ok=True)
            try:
                os.mkdir(folder, 0o700)
            except FileExistsError:
                pass
            handle = os.open(folder, _FOLDER)
        except OSError as error:
            _warn_once(folder, "the reference cache %s cannot be used (%s): each sample's "
                       "reference is computed again" % (folder, error.strerror or error))
            return None
        try:
            why = _untrusted(os.fstat(handle))
        finally:
            os.close(handle)
        if why:
            _warn_once(folder, "the reference cache %s %s; it is not used: each sample's "
                       "reference is computed again" % (folder, why))
            return None
        return folder

    def _path(self, key):
        return os.path.join(self.folder, key[:2], key + ".ref")

    def _shard(self, root, key, create):
        """The descriptor of the entry's subfolder (opened without following
        a symlink), or None: missing (and not `create`) or not to be trusted."""
        name = key[:2]
        flags = _FOLDER | os.O_NOFOLLOW
        try:
            handle = os.open(name, flags, dir_fd=root)
        except FileNotFoundError:
            if not create:
                return None
            try:
                os.mkdir(name, 0o700, dir_fd=root)
            except FileExistsError:
                pass
            handle = os.open(name, flags, dir_fd=root)
        except OSError as error:
            if error.errno in (errno.ELOOP, errno.ENOTDIR):
                _warn_once(os.path.join(self.folder, name),
                           "the reference cache folder %s is not a folder (a symlink or a "
                           "file): its entries are not used" % os.path.join(self.folder, name))
                return None
            raise
        why = _untrusted(os.fstat(handle))
        if why:
            os.close(handle)
            path = os.path.join(self.folder, name)
            _warn_once(path, "the reference cache folder %s %s; its entries are not used"
                       % (path, why))
            return None
        return handle

    def get(self, key):
        """The outputs by name, or None: missing, or not to be trusted
        (one warning; computed again and rewritten)."""
        if not self.folder:
            return None
        try:
            outputs = self._read(key)
        except OSError as error:
            _warn_once(self._path(key), "the reference cache entry %s cannot be read (%s): "
                       "skipped, its reference is computed again"
                       % (self._path(key), error.strerror or error))
            outputs = None
        if outputs is None:
            self.misses += 1
            return None
        self.hits += 1
        return outputs

    def _skip(self, key, why, rewritten=True):
        _warn_once(self._path(key), "the reference cache entry %s %s: skipped, its reference "
                   "is computed again%s" % (self._path(key), why,
                                            " and the entry rewritten" if rewritten else
                                            " (the entry is left alone and not cached)"))

    def _read(self, key):
        root = os.open(self.folder, _FOLDER)
        try:
            shard = self._shard(root, key, create=False)
            if shard is None:
                return None
            try:
                try:
                    handle = os.open(key + ".ref", _READ, dir_fd=shard)
                except FileNotFoundError:
                    return None
                except OSError as error:
                    if error.errno == errno.ELOOP:
                        self._skip(key, "is a symlink")
                        return None
                    if error.errno == errno.ENXIO:   # a socket
                        self._skip(key, "is a socket", rewritten=False)
                        return None
                    raise
                try:
                    status = os.fstat(handle)
                    if not stat.S_ISREG(status.st_mode):
                        self._skip(key, "is %s, not a file" % _kind(status.st_mode),
                                   rewritten=False)
                        return None
                    if status.st_uid != os.geteuid():
                        self._skip(key, "is owned by uid %d, not by you (uid %d)"
                                   % (status.st_uid, os.geteuid()))
                        return None
                    if status.st_size > MAX_ENTRY:
                        self._skip(key, "is larger (%d bytes) than any entry can be"
                                   % status.st_size)
                        return None
                    data = _read_exactly(handle, status.st_size)
                finally:
                    os.close(handle)
            finally:
                os.close(shard)
        finally:
            os.close(root)
        outputs, why = _decode(data)
        if why:
            self._skip(key, why)
        return outputs

    def put(self, key, outputs):
        if not self.folder:
            return
        try:
            chunks, size = _encode(outputs)
            if size > MAX_ENTRY:
                return   # larger than get() accepts: not cached
            root = os.open(self.folder, _FOLDER)
            try:
                shard = self._shard(root, key, create=True)
                if shard is None:
                    return
                try:
                    _replace(shard, key + ".ref", chunks)
                finally:
                    os.close(shard)
            finally:
                os.close(root)
        except OSError:
            pass  # a cache that cannot be written only costs time


def _replace(folder, name, chunks):
    """Writes `chunks` as `name` in the folder `folder` (a descriptor): a
    new file renamed over it. A directory, FIFO or other special file of
    that name is left alone (nothing written); a symlink is replaced, not
    written through."""
    try:
        status = os.stat(name, dir_fd=folder, follow_symlinks=False)
        if not (stat.S_ISREG(status.st_mode) or stat.S_ISLNK(status.st_mode)):
            return
    except FileNotFoundError:
        pass
    temporary = ".tmp-%d-%s.ref" % (os.getpid(), secrets.token_hex(6))
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW |
                     os.O_CLOEXEC, 0o600, dir_fd=folder)
    try:
        try:
            for chunk in chunks:
                view = memoryview(chunk)
                while view.nbytes:
                    view = view[os.write(handle, view):]
        finally:
            os.close(handle)
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        try:
            os.unlink(temporary, dir_fd=folder)
        except OSError:
            pass
        raise


def _read_exactly(handle, size):
    """`size` bytes from `handle` (fewer if the file is shorter now)."""
    data = bytearray(size)
    view = memoryview(data)
    done = 0
    while done < size:
        count = os.readv(handle, [view[done:]])
        if count == 0:
            break
        done += count
    return view[:done]


# An entry: a line naming the format; a line "sha256:<hex> <length>" of
# everything after it; a JSON line describing the arrays; their bytes back
# to back (read with one read and no parsing beyond the header: a reference
# per sample must cost less than a run).
_MAGIC = (FORMAT + "\n").encode()


def _encode(outputs):
    """(the entry's chunks, its size)."""
    arrays = [numpy.ascontiguousarray(a) for a in outputs.values()]
    header = json.dumps({"names": list(outputs),
                         "dtypes": [a.dtype.str for a in arrays],
                         "shapes": [list(a.shape) for a in arrays]}).encode() + b"\n"
    body = [header] + [a.reshape(-1).view(numpy.uint8) for a in arrays]
    digest = hashlib.sha256()
    length = 0
    for chunk in body:
        digest.update(chunk)
        length += len(chunk)
    line = ("sha256:%s %d\n" % (digest.hexdigest(), length)).encode()
    return [_MAGIC, line] + body, len(_MAGIC) + len(line) + length


def _decode(data):
    """(outputs, "") or (None, why the entry is not used)."""
    if not bytes(data[:len(_MAGIC)]) == _MAGIC:
        return None, "is not an entry of this version (%s)" % FORMAT
    end = bytes(data[len(_MAGIC):len(_MAGIC) + 200]).find(b"\n")
    try:
        if end < 0:
            raise ValueError
        line = bytes(data[len(_MAGIC):len(_MAGIC) + end]).decode("ascii")
        digest, length = line.split(" ")
        if not digest.startswith("sha256:") or len(digest) != 71:
            raise ValueError
        length = int(length)
    except ValueError:
        return None, "has no digest line (damaged)"
    body = data[len(_MAGIC) + end + 1:]
    if len(body) < length:
        return None, "is truncated (%d of %d bytes)" % (len(body), length)
    if len(body) > length:
        return None, "has %d bytes past its end (damaged)" % (len(body) - length)
    if hashlib.sha256(body).hexdigest() != digest[len("sha256:"):]:
        return None, "does not match its sha256 (damaged)"
    try:
        end = bytes(body[:1 << 20]).index(b"\n")
        header = json.loads(bytes(body[:end]))
        offset = end + 1
        outputs = {}
        for name, dtype, shape in zip(header["names"], header["dtypes"], header["shapes"]):
            dtype = numpy.dtype(dtype)
            count = int(numpy.prod(shape, dtype=numpy.int64))
            size = count * dtype.itemsize
            if offset + size > len(body):
                raise ValueError("short")
            array = numpy.frombuffer(body, dtype, count, offset).reshape(shape)
            array.flags.writeable = False
            outputs[name] = array
            offset += size
        if offset != len(body):
            raise ValueError("long")
    except (ValueError, KeyError, TypeError):
        # A digest that matches a body this version cannot parse.
        return None, "has a header this version cannot read"
    return outputs, ""
