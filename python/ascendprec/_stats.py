"""Aggregates over samples, their 95% intervals, and paired tests.

Every interval here is a two-sided 95% interval (docs/reference/datasets.md):

- the mean of a continuous metric: a percentile bootstrap (2,000
  resamples, a fixed seed, so a run and its rerun on a cluster agree bit
  for bit);
- the mean of a 0/1 metric (top-1 agreement on one row per sample):
  Wilson's score interval;
- a percentile (``p1``, ``p5``: the level 1% / 5% of samples are worse
  than): distribution-free, from order statistics and the binomial law.
  With too few samples it has no bound on the worse side (n < 73 for p5,
  n < 368 for p1): the interval says so (None) and a target judged on it
  takes the worst sample instead, with a note;
- ``worst`` (``min`` / ``max``) is what the dataset shows; no interval
  extends it beyond the samples.

Comparisons of two plans on the same samples are paired: McNemar's exact
test for 0/1 agreement, a paired bootstrap of the mean difference
otherwise.
"""

import math

import numpy

from ._metrics import AGREEMENT, higher_is_better

BOOTSTRAP_RESAMPLES = 2000
SEED = 20261207
Z95 = 1.959963984540054


def _clean(values, metric):
    """The values as float64, NaN (nothing compared) dropped."""
    array = numpy.asarray(values, dtype=numpy.float64)
    return array[~numpy.isnan(array)]


def _bootstrap_means(values, resamples=BOOTSTRAP_RESAMPLES, seed=SEED):
    rng = numpy.random.Generator(numpy.random.PCG64(seed))
    n = values.size
    means = numpy.empty(resamples)
    chunk = max(1, min(resamples, 4_000_000 // max(n, 1)))
    done = 0
    while done < resamples:
        count = min(chunk, resamples - done)
        picks = rng.integers(0, n, size=(count, n))
        means[done:done + count] = values[picks].mean(axis=1)
        done += count
    return means


def bootstrap_mean_interval(values):
    """(low, high) of the mean's 95% percentile-bootstrap interval."""
    if values.size == 0:
        return (math.nan, math.nan)
    if values.size == 1 or numpy.all(values == values[0]):
        return (float(values[0]), float(values[0])) if values.size else (math.nan, math.nan)
    if not numpy.all(numpy.isfinite(values)):
        low = float(values.min()) if numpy.isinf(values.min()) else math.nan
        return (low, math.inf) if numpy.isinf(values.max()) else (low, float(values.max()))
    means = _bootstrap_means(values)
    return (float(numpy.quantile(means, 0.025)), float(numpy.quantile(means, 0.975)))


def wilson_interval(successes, n):
    """Wilson's 95% score interval of a proportion."""
    if n == 0:
        return (math.nan, math.nan)
    p = successes / n
    denominator = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _binomial_cdf(k, n, p):
    """P(Binom(n, p) <= k), summed in log space (n up to millions)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    log_p, log_q = math.log(p), math.log1p(-p)
    terms = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
             + i * log_p + (n - i) * log_q for i in range(k + 1)]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))


def quantile_interval(sorted_values, q):
    """A distribution-free 95% interval of the q-quantile from order
    statistics: (low, high), None on a side the sample is too small for."""
    n = sorted_values.size
    if n == 0:
        return (None, None)
    if q > 0.5:
        # The upper tail as the lower tail of -X: the sums stay short.
        low, high = quantile_interval(-sorted_values[::-1], 1 - q)
        return (None if high is None else -high, None if low is None else -low)
    # low = X_(k) (1-based) with P(Binom(n, q) >= k) >= 0.975: the largest such k.
    low = None
    for k in range(int(math.floor(q * n)) + 1, 0, -1):
        if 1 - _binomial_cdf(k - 1, n, q) >= 0.975:
            low = float(sorted_values[k - 1])
            break
    high = None
    for k in range(int(math.ceil(q * n)), n + 1):
        if k >= 1 and _binomial_cdf(k - 1, n, q) >= 0.975:
            high = float(sorted_values[k - 1])
            break
    return (low, high)


def aggregate(values, metric, ids=None, worst_count=5):
    """The dataset figures of one metric over its per-sample values."""
    with numpy.errstate(invalid="ignore"):   # Inf - Inf between overflowed samples
        return _aggregate(values, metric, ids, worst_count)


def _aggregate(values, metric, ids, worst_count):
    raw = numpy.asarray(values, dtype=numpy.float64)
    clean = _clean(raw, metric)
    better_high = higher_is_better(metric)
    n = int(clean.size)
    result = {"n": n}
    if n == 0:
        return result
    result["mean"] = float(clean.mean())
    if metric in AGREEMENT and numpy.all((clean == 0) | (clean == 1)):
        result["mean_ci"] = list(wilson_interval(int(clean.sum()), n))
        result["interval"] = "wilson"
    else:
        result["mean_ci"] = list(bootstrap_mean_interval(clean))
        result["interval"] = "bootstrap"
    ordered = numpy.sort(clean)
    result["worst"] = float(ordered[0] if better_high else ordered[-1])
    result["median"] = float(numpy.median(clean))
    for percent in (1, 5):
        # pN: the level N% of samples are worse than.
        q = percent / 100 if better_high else 1 - percent / 100
        result["p%d" % percent] = float(numpy.quantile(clean, q))
        low, high = quantile_interval(ordered, q)
        result["p%d_ci" % percent] = [low, high]
    if ids is not None:
        order = numpy.argsort(raw if better_high else -raw, kind="stable")
        order = [i for i in order if not numpy.isnan(raw[i])]
        result["worst_samples"] = [[ids[i], float(raw[i])] for i in order[:worst_count]]
    return result


def conservative_bound(summary, aggregate_name, metric):
    """The value of `aggregate_name` (mean, worst, p1, p5, median) at its
    interval's worse end, and a note when the interval has no such end."""
    better_high = higher_is_better(metric)
    if aggregate_name == "worst":
        return summary["worst"], ""
    if aggregate_name == "median":
        return summary["median"], ""
    if aggregate_name == "mean":
        low, high = summary["mean_ci"]
        return (low if better_high else high), ""
    low, high = summary[aggregate_name + "_ci"]
    bound = low if better_high else high
    if bound is None:
        return summary["worst"], ("%d samples are too few to bound %s at 95%%; the worst "
                                  "sample stands in" % (summary["n"], aggregate_name))
    return bound, ""


def optimistic_bound(summary, aggregate_name, metric):
    """The interval's better end: a target that fails there fails for sure."""
    better_high = higher_is_better(metric)
    if aggregate_name in ("worst", "median"):
        return summary[aggregate_name]
    if aggregate_name == "mean":
        low, high = summary["mean_ci"]
        return high if better_high else low
    low, high = summary[aggregate_name + "_ci"]
    bound = high if better_high else low
    if bound is None:
        return math.inf if better_high else -math.inf
    return bound


def mcnemar(a, b):
    """McNemar's exact test of two plans' 0/1 outcomes on the same samples:
    (discordant pairs a-only, b-only, two-sided p)."""
    a = numpy.asarray(a) >= 0.5
    b = numpy.asarray(b) >= 0.5
    only_a = int(numpy.count_nonzero(a & ~b))
    only_b = int(numpy.count_nonzero(b & ~a))
    total = only_a + only_b
    if total == 0:
        return only_a, only_b, 1.0
    p = 2 * _binomial_cdf(min(only_a, only_b), total, 0.5)
    return only_a, only_b, min(1.0, p)


def paired_bootstrap(a, b):
    """The mean of a - b over the same samples, its 95% bootstrap
    interval, and a two-sided p-value for 'no difference'."""
    a = numpy.asarray(a, dtype=numpy.float64)
    b = numpy.asarray(b, dtype=numpy.float64)
    keep = ~(numpy.isnan(a) | numpy.isnan(b))
    diff = a[keep] - b[keep]
    if diff.size == 0:
        return {"mean_diff": None, "ci": [None, None], "p": None, "n": 0}
    if not numpy.all(numpy.isfinite(diff)):
        # An overflow on some samples (Inf): no mean to bootstrap, but which
        # plan is worse on each sample still counts (an exact sign test).
        above = int(numpy.count_nonzero(diff > 0))
        below = int(numpy.count_nonzero(diff < 0))
        p = min(1.0, 2 * _binomial_cdf(min(above, below), above + below, 0.5)) \
            if above + below else 1.0
        return {"mean_diff": float(numpy.mean(diff)), "ci": [None, None], "p": p,
                "n": int(diff.size), "sign_test": [above, below]}
    if numpy.all(diff == 0):
        return {"mean_diff": 0.0, "ci": [0.0, 0.0], "p": 1.0, "n": int(diff.size)}
    means = _bootstrap_means(diff)
    below = numpy.count_nonzero(means <= 0) / means.size
    above = numpy.count_nonzero(means >= 0) / means.size
    p = min(1.0, 2 * max(min(below, above), 1 / means.size))
    return {"mean_diff": float(diff.mean()),
            "ci": [float(numpy.quantile(means, 0.025)), float(numpy.quantile(means, 0.975))],
            "p": p, "n": int(diff.size)}
