"""Per-sample metrics of one output against its fp32 reference.

The element-wise figures are msprobe's (Huawei's accuracy-comparison tool)
plus the ones prec-compile prints, computed in float64 on one sample,
never pooled over a batch (docs/reference/datasets.md):

- ``cosine``        cosine similarity of the flattened tensors;
- ``max_abs_err``   max |a - r|;
- ``max_rel_err``   max |a - r| / max(|r|, 1e-3 max|r|), as prec-compile;
- ``rmse``          root mean square of a - r;
- ``rel_rmse``      rmse over the reference's rms: the relative Euclidean
                    distance ||a - r|| / ||r||;
- ``euclid_dist``   ||a - r|| (msprobe's EucDist);
- ``within_1e-3``, ``within_5e-3``  the share of elements with
                    |a - r| <= 0.001 |r| (0.005 |r|): msprobe's one- and
                    five-thousandth ratios;
- ``kl``            KL(reference || plan) over the last axis, for outputs
                    whose reference is a probability distribution there;
- ``top1_agreement``, ``top5_agreement``  for class-score outputs: the share
                    of rows whose top-1 (reference's top-1 among the
                    plan's top-5) agrees;
- ``top1_accuracy``, ``reference_top1_accuracy``  against the sample's
                    label, when the dataset has labels.

An Inf or NaN where the reference is finite (an fp16 overflow) is the
worst value a figure can take: cosine -1, errors Inf, agreement 0.
"""

import math

import numpy

#: Metrics where larger is better; the others are errors.
HIGHER_IS_BETTER = {"cosine", "within_1e-3", "within_5e-3", "top1_agreement",
                    "top5_agreement", "top1_accuracy", "reference_top1_accuracy"}
#: Metrics that are a share of rows agreeing (0/1 per sample on a single
#: row): judged with binomial intervals and McNemar's test.
AGREEMENT = {"top1_agreement", "top5_agreement", "top1_accuracy",
             "reference_top1_accuracy"}
ELEMENTWISE = ["cosine", "max_abs_err", "max_rel_err", "rmse", "rel_rmse",
               "euclid_dist", "within_1e-3", "within_5e-3"]


def higher_is_better(metric):
    return metric in HIGHER_IS_BETTER


def worst_value(metric):
    if metric == "cosine":
        return -1.0
    return 0.0 if higher_is_better(metric) else math.inf


def is_class_scores(shape, class_axis):
    """A classifier's scores: [C], [N, C] with C >= 2, or any output named
    in class_axis."""
    if class_axis is not None:
        return True
    return len(shape) in (1, 2) and shape[-1] >= 2


def elementwise(actual, reference):
    """The element-wise figures of one output on one sample (a dict)."""
    a = numpy.asarray(actual, dtype=numpy.float64).ravel()
    r = numpy.asarray(reference, dtype=numpy.float64).ravel()
    if a.shape != r.shape:
        raise ValueError("the plan's output has %d elements, the reference's %d"
                         % (a.size, r.size))
    finite_r = numpy.isfinite(r)
    finite_a = numpy.isfinite(a)
    # Compared where the reference is finite; an element finite in the
    # reference and not in the plan is an overflow: the worst figures.
    overflow = bool(numpy.any(finite_r & ~finite_a))
    a, r = a[finite_r], r[finite_r]
    result = {"elements": int(a.size), "non_finite": int(numpy.count_nonzero(finite_r & ~finite_a))}
    if overflow:
        for name in ELEMENTWISE:
            result[name] = worst_value(name)
        return result
    if a.size == 0:
        for name in ELEMENTWISE:
            result[name] = math.nan
        return result
    diff = numpy.abs(a - r)
    abs_r = numpy.abs(r)
    scale = max(float(abs_r.max()) * 1e-3, 1e-30)
    sum_sq_diff = float(numpy.dot(diff, diff))
    sum_sq_r = float(numpy.dot(r, r))
    sum_sq_a = float(numpy.dot(a, a))
    if sum_sq_r > 0 and sum_sq_a > 0:
        cosine = float(numpy.dot(a, r)) / math.sqrt(sum_sq_r * sum_sq_a)
    else:
        cosine = 1.0 if sum_sq_r == sum_sq_a else 0.0
    rmse = math.sqrt(sum_sq_diff / a.size)
    if sum_sq_r > 0:
        rel_rmse = math.sqrt(sum_sq_diff / sum_sq_r)
    else:
        rel_rmse = math.inf if sum_sq_diff > 0 else 0.0
    result.update({
        "cosine": cosine,
        "max_abs_err": float(diff.max()),
        "max_rel_err": float((diff / numpy.maximum(abs_r, scale)).max()),
        "rmse": rmse,
        "rel_rmse": rel_rmse,
        "euclid_dist": math.sqrt(sum_sq_diff),
        "within_1e-3": float(numpy.count_nonzero(diff <= 1e-3 * abs_r)) / a.size,
        "within_5e-3": float(numpy.count_nonzero(diff <= 5e-3 * abs_r)) / a.size,
    })
    return result


def _rows(array, axis):
    """`array` as rows of classes along `axis` (2-D: rows x classes)."""
    array = numpy.moveaxis(numpy.asarray(array, dtype=numpy.float64), axis, -1)
    return array.reshape(-1, array.shape[-1])


def kl_divergence(actual, reference, axis=-1):
    """Mean over rows of KL(reference || plan) when the reference is a
    probability distribution along `axis` (non-negative, rows summing to
    1 within 1e-3); None otherwise."""
    r = _rows(reference, axis)
    if r.size == 0 or r.shape[-1] < 2 or numpy.any(~numpy.isfinite(r)) or numpy.any(r < 0):
        return None
    if numpy.any(numpy.abs(r.sum(axis=-1) - 1) > 1e-3):
        return None
    a = _rows(actual, axis)
    if numpy.any(~numpy.isfinite(a)):
        return math.inf
    # The plan's rows, renormalized: an fp16 softmax sums to 1 only within
    # its rounding, and KL is defined between distributions.
    a = numpy.clip(a, 1e-12, None)
    a = a / a.sum(axis=-1, keepdims=True)
    r = r / r.sum(axis=-1, keepdims=True)   # both exactly distributions: equal rows give 0
    mask = r > 0
    terms = numpy.where(mask, r * (numpy.log(numpy.where(mask, r, 1)) - numpy.log(a)), 0.0)
    # KL >= 0; a sum of roundings of near-equal rows is not a gain.
    return max(0.0, float(terms.sum(axis=-1).mean()))


def class_metrics(actual, reference, axis=-1, label=None, k=5):
    """Top-1 / top-k agreement with the reference (and accuracy against
    `label`: a class index per row) for class scores along `axis`."""
    a = _rows(actual, axis)
    r = _rows(reference, axis)
    result = {}
    if numpy.any(~numpy.isfinite(a)):
        plan_top1 = numpy.full(a.shape[0], -1)
    else:
        plan_top1 = a.argmax(axis=-1)
    ref_top1 = r.argmax(axis=-1)
    result["top1_agreement"] = float(numpy.mean(plan_top1 == ref_top1))
    if a.shape[-1] > k:
        if numpy.any(~numpy.isfinite(a)):
            result["top%d_agreement" % k] = 0.0
        else:
            top_k = numpy.argpartition(-a, k - 1, axis=-1)[:, :k]
            result["top%d_agreement" % k] = float(numpy.mean(
                numpy.any(top_k == ref_top1[:, None], axis=-1)))
    if label is not None:
        labels = numpy.asarray(label).reshape(-1).astype(numpy.int64)
        if labels.size == 1 and a.shape[0] > 1:
            labels = numpy.repeat(labels, a.shape[0])
        if labels.size != a.shape[0]:
            raise LabelError("the label holds %d values for %d rows of class scores: one class "
                             "index per row (one-hot rows: give their argmax)"
                             % (labels.size, a.shape[0]))
        if numpy.any((labels < 0) | (labels >= a.shape[-1])):
            raise LabelError("label %d is not a class of an output with %d classes"
                             % (int(labels[(labels < 0) | (labels >= a.shape[-1])][0]),
                                a.shape[-1]))
        result["top1_accuracy"] = float(numpy.mean(plan_top1 == labels))
        result["reference_top1_accuracy"] = float(numpy.mean(ref_top1 == labels))
    return result


class LabelError(ValueError):
    """A label that does not fit the class output it scores."""


class ClassAxisError(ValueError):
    """class_axes names an output or an axis the model does not have."""


def sample_metrics(outputs, references, *, label=None, class_axes=None, label_output=None):
    """Every metric of every output of one sample: {output: {metric: value}}.

    ``class_axes``: {output: axis} of outputs holding class scores (by
    default the classifier-shaped ones, [C] or [N, C]); ``label_output``
    the one the label scores (the first class output by default)."""
    result = {}
    for name, axis in (class_axes or {}).items():
        if name not in references:
            raise ClassAxisError("class_axes names output %r; the outputs are %s"
                                 % (name, ", ".join(references)))
        shape = numpy.shape(references[name])
        if not -len(shape) <= axis < len(shape) or shape[axis] < 2:
            raise ClassAxisError("output %r has shape %s: axis %d %s" % (
                name, list(shape), axis, "is not one of its axes"
                if not -len(shape) <= axis < len(shape) else "holds fewer than 2 classes"))
    class_outputs = [name for name in references
                     if (class_axes and name in class_axes)
                     or (not class_axes and is_class_scores(numpy.shape(references[name]), None))]
    scored_by_label = label_output or (class_outputs[0] if class_outputs else None)
    if label is not None and scored_by_label is None:
        raise LabelError("labels were given, but no output holds class scores ([C] or [N, C]); "
                         "name the one that does with class_axes={'output': axis} "
                         "(--class-axis=OUTPUT:AXIS)")
    for name, reference in references.items():
        if name not in outputs:
            raise KeyError("the plan has no output %r" % name)
        actual = outputs[name]
        figures = elementwise(actual, reference)
        axis = (class_axes or {}).get(name, -1)
        kl = kl_divergence(actual, reference, axis) if numpy.ndim(reference) else None
        if kl is not None:
            figures["kl"] = kl
        if name in class_outputs:
            figures.update(class_metrics(actual, reference, axis,
                                         label if name == scored_by_label else None))
        result[name] = figures
    return result
