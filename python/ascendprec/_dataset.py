"""Datasets: many samples for one model, read lazily.

A dataset is an iterable of samples, each a dict of numpy arrays by model
input name. The layouts (docs/reference/datasets.md):

- a folder of ``test_data_set_*`` folders (ONNX's own layout:
  ``input_<i>.pb``, optionally ``output_<i>.pb`` as expected outputs);
- a folder of ``.npz`` files, one per sample, keys the input names;
- a folder of per-sample folders holding ``<input name>.npy`` files;
- one ``.npy`` or ``.npz`` file whose arrays carry a leading sample axis
  (``axis=``, ``--data-axis``; a ``.npy`` feeds a one-input model);
- in Python, any iterable of ``{name: ndarray}`` (onnxruntime's
  CalibrationDataReader hands the same dicts through ``get_next()``).

Labels (task accuracy against ground truth) come from ``labels.npy`` next
to the samples (one row per sample, in sample order) or ``labels=``.

Samples are read one at a time (a leading-axis file is memory-mapped), so
a run's memory does not grow with the dataset.
"""

import glob
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Dict, Optional

import numpy

from . import _ascendprec
from ._errors import RunError


@dataclass
class Sample:
    """One sample: its id (a file or folder name, or its index), the
    arrays by input name, and its label when the dataset has labels."""
    id: str
    inputs: Dict[str, numpy.ndarray]
    source: str = ""                       # the file or folder it came from
    label: Optional[numpy.ndarray] = None
    expected: Dict[str, numpy.ndarray] = field(default_factory=dict)


def _natural_key(name):
    """test_data_set_10 after test_data_set_9."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def _bad(path, message):
    """A RunError about the dataset file or folder `path`."""
    return RunError(message, step="data", file=path,
                    text="%s: %s" % (path, message) if path else message)


class Dataset:
    """Samples from a path or an iterable; iterating reads them lazily.

    ``input_names`` (the model's, in order) names the arrays of layouts
    that do not (a ``.pb`` without a name, a bare ``.npy``)."""

    def __init__(self, data, *, axis=None, labels=None, input_names=None, limit=None):
        self.description = ""
        self._input_names = list(input_names or [])
        self._limit = limit
        self._axis = axis
        self._labels = None
        self.labels_from = ""
        self._items = None          # a list of (id, reader) for paths
        self._iterable = None
        if isinstance(data, (str, os.PathLike)):
            path = os.fspath(data)
            self.description = path
            self._items, found_labels = self._index(path)
            if labels is None:
                labels = found_labels
        elif isinstance(data, Dataset):
            self.__dict__.update(data.__dict__)
            if limit is not None:
                self._limit = limit
            return
        elif isinstance(data, Mapping):
            raise TypeError("data takes a path or an iterable of {input name: array} "
                            "samples; for one sample, wrap it in a list: data=[sample]")
        elif isinstance(data, Sequence) and not isinstance(data, (str, bytes)):
            # A list of samples: indexable, so read again by a search.
            self.description = "%s of %d samples" % (type(data).__name__, len(data))
            self._items = [(str(i), _Given(item, "sample %d" % i)) for i, item in enumerate(data)]
        elif hasattr(data, "get_next") and not isinstance(data, Iterable):
            self.description = type(data).__name__
            self._iterable = _from_reader(data)
        elif isinstance(data, Iterable):
            self.description = "%s of samples" % type(data).__name__
            self._iterable = data
        else:
            raise TypeError("data takes a path or an iterable of {input name: array} "
                            "samples, not a %s" % type(data).__name__)
        if labels is not None:
            self._labels = self._load_labels(labels)

    # -- indexing a path --------------------------------------------------

    def _index(self, path):
        if not os.path.exists(path):
            raise _bad(path, "no such file or folder (the dataset)")
        if os.path.isfile(path):
            return self._index_file(path), None
        if self._axis is not None:
            raise _bad(path, "the sample axis (data_axis, --data-axis) applies to one .npy or "
                             ".npz file; a folder holds one sample per file or folder")
        entries = sorted(os.listdir(path), key=_natural_key)
        labels = os.path.join(path, "labels.npy")
        labels = labels if os.path.isfile(labels) else None
        sets = [e for e in entries if e.startswith("test_data_set_")
                and os.path.isdir(os.path.join(path, e))]
        if sets:
            return [(e, _PbFolder(os.path.join(path, e))) for e in sets], labels
        npz = [e for e in entries if e.endswith(".npz")]
        if npz:
            return [(e[:-4], _NpzFile(os.path.join(path, e))) for e in npz], labels
        folders = [e for e in entries if os.path.isdir(os.path.join(path, e))
                   and glob.glob(os.path.join(path, e, "*.npy"))]
        if folders:
            return [(e, _NpyFolder(os.path.join(path, e))) for e in folders], labels
        if glob.glob(os.path.join(path, "input_*.pb")):
            return [(os.path.basename(path.rstrip("/")) or path, _PbFolder(path))], labels
        images = [e for e in entries if e.lower().endswith((".png", ".jpg", ".jpeg", ".wav"))]
        if images:
            raise _bad(path, "%d image or audio files (%s ...) but no samples: a sample holds "
                             "the model's input arrays after its preprocessing; save them as "
                             ".npz (numpy.savez('s0.npz', %s=array)), as examples/datasets.py "
                             "does" % (len(images), images[0],
                                       self._input_names[0] if self._input_names else "x"))
        raise _bad(path, "no samples found: expected test_data_set_*/ folders (input_<i>.pb), "
                         ".npz files (one per sample), or per-sample folders of <input>.npy "
                         "files; for one file with a leading sample axis give the file itself")

    def _index_file(self, path):
        if path.endswith(".npz"):
            archive = numpy.load(path, mmap_mode="r", allow_pickle=False)
            arrays = {key: archive[key] for key in archive.files}
        elif path.endswith(".npy"):
            array = numpy.load(path, mmap_mode="r", allow_pickle=False)
            if len(self._input_names) > 1:
                raise _bad(path, "a .npy file feeds a one-input model; this model has %d "
                           "inputs (%s): give an .npz with one key each"
                           % (len(self._input_names), ", ".join(self._input_names)))
            arrays = {(self._input_names[0] if self._input_names else "input_0"): array}
        else:
            raise _bad(path, "a dataset file is a .npy or .npz with a leading sample axis; "
                             "a folder holds one sample per file or folder")
        axis = 0 if self._axis is None else self._axis
        counts = set()
        for key, array in arrays.items():
            if array.ndim == 0:
                raise _bad(path, "array '%s' is a scalar: a dataset file's arrays have a "
                           "leading sample axis" % key)
            if not -array.ndim <= axis < array.ndim:
                raise _bad(path, "array '%s' has %d dims; the sample axis %d is not one of "
                           "them" % (key, array.ndim, axis))
            counts.add(array.shape[axis])
        if len(counts) != 1:
            raise _bad(path, "the arrays hold different numbers of samples along axis %d (%s)"
                       % (axis, ", ".join("%s: %d" % (k, a.shape[axis]) for k, a in arrays.items())))
        count = counts.pop()
        return [(str(i), _AxisSlice(path, arrays, axis, i)) for i in range(count)]

    def _load_labels(self, labels):
        """Class indices, one row per sample: a .npy of integers (or a
        sequence of them)."""
        self.labels_from = "labels given"
        if isinstance(labels, (str, os.PathLike)):
            path = self.labels_from = os.fspath(labels)
            if not path.endswith(".npy"):
                raise _bad(path, "labels are a .npy file of class indices, one row per sample "
                                 "(numpy.save('labels.npy', classes))")
            try:
                array = numpy.load(path, mmap_mode="r", allow_pickle=False)
            except (OSError, ValueError) as error:
                raise _bad(path, "cannot read the labels: %s" % error) from None
        else:
            array = numpy.asarray(labels)
        where = self.labels_from
        if array.dtype.kind not in "iu":
            raise _bad(where, "labels are class indices (integers), not %s; one-hot rows or "
                              "scores: give their argmax" % array.dtype)
        if array.ndim == 0:
            raise _bad(where, "labels hold one class index per sample: an array with a leading "
                              "sample axis, not a scalar")
        if self._items is not None and len(array) != len(self._items):
            raise _bad(where, "the labels hold %d rows for %d samples: one row per sample, in "
                              "sample order" % (len(array), len(self._items)))
        return array

    # -- iteration --------------------------------------------------------

    def __len__(self):
        if self._items is None:
            raise TypeError("a dataset from an iterable has no length before it is read")
        return len(self._items) if self._limit is None else min(self._limit, len(self._items))

    def has_length(self):
        return self._items is not None

    def __iter__(self):
        if self._items is not None:
            items = self._items if self._limit is None else self._items[:self._limit]
            for index, (sample_id, reader) in enumerate(items):
                inputs, expected = reader.read(self._input_names)
                yield Sample(sample_id, inputs, reader.path, self._label(index), expected)
            return
        for index, item in enumerate(self._iterable):
            if self._limit is not None and index >= self._limit:
                return
            if not isinstance(item, Mapping):
                raise _bad("", "sample %d of the data is a %s; each sample is a dict "
                           "{input name: array}" % (index, type(item).__name__))
            yield Sample(str(index), _named_arrays(item, "sample %d" % index),
                         "sample %d" % index, self._label(index))

    def _label(self, index):
        if self._labels is None:
            return None
        if index >= len(self._labels):
            raise _bad(self.labels_from, "the labels hold %d rows, fewer than the samples "
                       "(sample %d has none)" % (len(self._labels), index))
        return numpy.asarray(self._labels[index])

    def shipped(self, indices):
        """What a worker needs to read samples `indices` itself: the
        readers (paths, no arrays) of a path dataset."""
        return [(self._items[i][0], self._items[i][1], self._label(i)) for i in indices]


def _named_arrays(item, where):
    """A sample's {input name: array}; a key that is not a str (1 for 'x')
    is a TypeError, as for Plan.run()."""
    for key in item:
        if not isinstance(key, str):
            raise TypeError("%s: a sample takes arrays by input name: the key %r (%s) is not a "
                            "str" % (where, key, type(key).__name__))
    return {key: numpy.asarray(value) for key, value in item.items()}


def read_shipped(entry, input_names):
    sample_id, reader, label = entry
    inputs, expected = reader.read(input_names)
    return Sample(sample_id, inputs, reader.path, label, expected)


def _from_reader(reader):
    """onnxruntime's CalibrationDataReader: get_next() until None."""
    while True:
        item = reader.get_next()
        if item is None:
            return
        yield item


class _Given:
    """One sample of a list given in Python: its arrays, shipped as such."""

    def __init__(self, item, path):
        self.item = item
        self.path = path

    def read(self, input_names):
        if not isinstance(self.item, Mapping):
            raise _bad("", "%s of the data is a %s; each sample is a dict {input name: array}"
                       % (self.path, type(self.item).__name__))
        return _named_arrays(self.item, self.path), {}


class _PbFolder:
    """A test_data_set_* folder: input_<i>.pb (named by the model's input
    order when the file carries no name) and output_<i>.pb."""

    def __init__(self, path):
        self.path = path

    def read(self, input_names):
        inputs, expected = {}, {}
        files = sorted(glob.glob(os.path.join(self.path, "input_*.pb")),
                       key=lambda p: _natural_key(os.path.basename(p)))
        if not files:
            raise _bad(self.path, "no input_<i>.pb files in this sample folder")
        for index, file in enumerate(files):
            name, array = _ascendprec._read_tensor(file)
            if not name:
                if index >= len(input_names):
                    raise _bad(file, "the file carries no input name and the model has only "
                               "%d inputs" % len(input_names))
                name = input_names[index]
            inputs[name] = array
        for file in sorted(glob.glob(os.path.join(self.path, "output_*.pb")),
                           key=lambda p: _natural_key(os.path.basename(p))):
            name, array = _ascendprec._read_tensor(file)
            expected[name or os.path.basename(file)[:-3]] = array
        return inputs, expected


class _NpzFile:
    def __init__(self, path):
        self.path = path

    def read(self, input_names):
        try:
            with numpy.load(self.path, allow_pickle=False) as archive:
                return {key: archive[key] for key in archive.files}, {}
        except (OSError, ValueError) as error:
            raise _bad(self.path, "cannot read this sample: %s" % error) from None


class _NpyFolder:
    def __init__(self, path):
        self.path = path

    def read(self, input_names):
        inputs = {}
        for file in sorted(glob.glob(os.path.join(self.path, "*.npy"))):
            try:
                inputs[os.path.basename(file)[:-4]] = numpy.load(file, allow_pickle=False)
            except (OSError, ValueError) as error:
                raise _bad(file, "cannot read this array: %s" % error) from None
        return inputs, {}


class _AxisSlice:
    """Sample `index` of a file whose arrays carry a leading sample axis;
    the file is memory-mapped, so only this sample is read."""

    def __init__(self, path, arrays, axis, index):
        self.path = path
        self._axis = axis
        self._index = index
        self._arrays = arrays

    def __getstate__(self):
        # Shipped to a worker: it maps the file again.
        return {"path": self.path, "axis": self._axis, "index": self._index,
                "keys": list(self._arrays)}

    def __setstate__(self, state):
        self.path = state["path"]
        self._axis = state["axis"]
        self._index = state["index"]
        if self.path.endswith(".npz"):
            archive = numpy.load(self.path, mmap_mode="r", allow_pickle=False)
            self._arrays = {key: archive[key] for key in archive.files}
        else:
            self._arrays = {state["keys"][0]: numpy.load(self.path, mmap_mode="r")}

    def read(self, input_names):
        return {key: numpy.ascontiguousarray(numpy.take(array, self._index, axis=self._axis))
                for key, array in self._arrays.items()}, {}


def check_sample(sample, model_inputs):
    """Names, shapes and dtypes of `sample` against the model's inputs
    ({name: (shape, dtype kind)}, -1 for a dynamic dim); a RunError naming
    the sample's file otherwise. Returns the sample's shape signature."""
    where = sample.source if sample.source and sample.source != "sample " + sample.id else ""
    given = set(sample.inputs)
    wanted = set(model_inputs)
    optional = getattr(model_inputs, "optional", frozenset())
    if not (wanted - optional) <= given <= wanted:
        missing = sorted(wanted - optional - given)
        extra = sorted(given - wanted)
        parts = []
        if missing:
            parts.append("missing %s" % ", ".join(repr(m) for m in missing))
        if extra:
            parts.append("has %s, which the model does not take" % ", ".join(repr(e) for e in extra))
        raise _bad(where, "sample %s: %s (the model's inputs: %s)"
                   % (sample.id, "; ".join(parts), ", ".join(model_inputs)))
    signature = []
    for name, (shape, kind) in model_inputs.items():
        if name not in sample.inputs:
            continue  # an input with a default, left out
        array = sample.inputs[name]
        if not isinstance(array, numpy.ndarray):
            array = sample.inputs[name] = numpy.asarray(array)
        if kind == "float" and array.dtype.kind not in "f":
            raise _bad(where, "sample %s: input '%s' is %s; the model takes floats"
                       % (sample.id, name, array.dtype))
        if kind == "int" and array.dtype.kind not in "iub":
            raise _bad(where, "sample %s: input '%s' is %s; the model takes integers"
                       % (sample.id, name, array.dtype))
        if len(shape) != array.ndim or any(d >= 0 and d != a for d, a in zip(shape, array.shape)):
            raise _bad(where, "sample %s: input '%s' has shape %s; the model takes %s"
                       % (sample.id, name, list(array.shape),
                          [d if d >= 0 else "?" for d in shape]))
        signature.append((name, tuple(array.shape)))
    return tuple(signature)
