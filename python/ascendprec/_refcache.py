"""The fp32 reference's outputs, cached on disk per sample.

A dataset's reference is run once per sample and shared by every plan,
mode and search step, in this process and the next: the outputs are kept
under a key made of the model's bytes, the options the reference depends
on, the sample's arrays and the package's version. Entries are written to
a temporary name and renamed, so a reader never sees half a file, and the
cache deletes nothing it did not write (its own ``.npz`` entries by name).
"""

import hashlib
import json
import os
import tempfile

import numpy

FORMAT = "ascendprec-reference-1"


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
        return os.path.join(self.folder, key[:2], key + ".npz")

    def get(self, key):
        if not self.folder:
            return None
        path = self._path(key)
        try:
            with numpy.load(path, allow_pickle=False) as archive:
                names = [str(n) for n in archive["__names__"]]
                outputs = {name: archive["o%d" % i] for i, name in enumerate(names)}
        except (OSError, ValueError, KeyError, EOFError):
            # Missing, or damaged: computed again (and rewritten).
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
            arrays = {"o%d" % i: numpy.asarray(a) for i, a in enumerate(outputs.values())}
            arrays["__names__"] = numpy.array(list(outputs), dtype=numpy.str_)
            handle, temporary = tempfile.mkstemp(prefix=".tmp-", suffix=".npz",
                                                 dir=os.path.dirname(path))
            try:
                with os.fdopen(handle, "wb") as stream:
                    numpy.savez(stream, **arrays)
                os.replace(temporary, path)
            except BaseException:
                os.unlink(temporary)
                raise
        except OSError:
            pass  # a cache that cannot be written only costs time
