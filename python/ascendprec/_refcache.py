"""The fp32 reference's outputs, cached on disk per sample.

A dataset's reference is run once per sample and shared by every plan,
mode and search step, in this process and the next: the outputs are kept
under a key made of the model's bytes, the options the reference depends
on, the sample's arrays and the package's version. Entries are written to
a temporary name and renamed, so a reader never sees half a file, and the
cache deletes nothing: a damaged entry is computed again and rewritten.
"""

import hashlib
import json
import os
import tempfile

import numpy

FORMAT = "ascendprec-reference-2"


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


class ReferenceCache:
    """A folder of entries (None: no cache)."""

    def __init__(self, folder):
        self.folder = folder
        self.hits = 0
        self.misses = 0

    def _path(self, key):
        return os.path.join(self.folder, key[:2], key + ".ref")

    def get(self, key):
        """The outputs by name, or None (missing or damaged: computed again
        and rewritten)."""
        if not self.folder:
            return None
        try:
            with open(self._path(key), "rb") as stream:
                data = stream.read()
            outputs = _decode(data)
        except (OSError, ValueError, KeyError, TypeError):
            outputs = None
        if outputs is None:
            self.misses += 1
            return None
        self.hits += 1
        return outputs

    def put(self, key, outputs):
        if not self.folder:
            return
        path = self._path(key)
        try:
            os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=".tmp-", suffix=".ref",
                                                 dir=os.path.dirname(path))
            try:
                with os.fdopen(handle, "wb") as stream:
                    stream.write(_encode(outputs))
                os.replace(temporary, path)
            except BaseException:
                os.unlink(temporary)
                raise
        except OSError:
            pass  # a cache that cannot be written only costs time


# An entry: a line naming the format, a JSON line describing the arrays,
# then their bytes back to back (read with one read and no parsing beyond
# the header: a reference per sample must cost less than a run).
_MAGIC = (FORMAT + "\n").encode()


def _encode(outputs):
    arrays = [numpy.ascontiguousarray(a) for a in outputs.values()]
    header = json.dumps({"names": list(outputs),
                         "dtypes": [a.dtype.str for a in arrays],
                         "shapes": [list(a.shape) for a in arrays]})
    return b"".join([_MAGIC, header.encode(), b"\n"] + [a.tobytes() for a in arrays])


def _decode(data):
    if not data.startswith(_MAGIC):
        return None
    end = data.index(b"\n", len(_MAGIC))
    header = json.loads(data[len(_MAGIC):end])
    offset = end + 1
    outputs = {}
    for name, dtype, shape in zip(header["names"], header["dtypes"], header["shapes"]):
        dtype = numpy.dtype(dtype)
        count = int(numpy.prod(shape, dtype=numpy.int64))
        size = count * dtype.itemsize
        if offset + size > len(data):
            return None
        outputs[name] = numpy.frombuffer(data, dtype, count, offset).reshape(shape)
        offset += size
    return outputs if offset == len(data) else None
