"""Accuracy targets on a dataset, and how a plan is judged against one.

A target is conditions joined by commas, each
``[output:]metric[.aggregate]>=bound`` (or ``<=``):

    top1_agreement>=0.995            the mean over samples (agreement)
    cosine.min>=0.999                every sample
    cosine.p1>=0.9995                the level 1% of samples fall below
    logits:rel_rmse.mean<=1e-3       one output

The aggregate defaults to ``mean`` for agreement and accuracy metrics and
to the worst sample (``min`` / ``max``) for the element-wise ones, which on
one sample is what prec-compile's --search-precision judges. A condition
holds when it holds at the worse end of its 95% interval
(_stats.conservative_bound); one that fails at the better end has
failed for sure, which lets a search stop a candidate early.
"""

import math
import re

from ._errors import SearchError
from ._metrics import AGREEMENT, ELEMENTWISE, higher_is_better
from ._stats import conservative_bound, optimistic_bound

METRICS = set(ELEMENTWISE) | AGREEMENT | {"kl"}
AGGREGATES = {"mean", "min", "max", "worst", "median", "p1", "p5"}

_CONDITION = re.compile(r"^\s*(?:(?P<output>[^:<>=]+):)?(?P<metric>[A-Za-z0-9_\-]+(?:e-\d)?)"
                        r"(?:\.(?P<aggregate>[a-z0-9]+))?\s*(?P<op><=|>=)\s*(?P<bound>\S+)\s*$")


class Condition:
    def __init__(self, text, output, metric, aggregate, op, bound):
        self.text = text
        self.output = output
        self.metric = metric
        self.aggregate = aggregate
        self.op = op
        self.bound = bound

    def holds(self, value):
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return False
        return value >= self.bound if self.op == ">=" else value <= self.bound

    def __str__(self):
        return self.text


def _fail(target, message):
    return SearchError("target %r: %s" % (target, message), step="search",
                       file="<options>", text="target %r: %s" % (target, message))


def parse_target(target):
    if not isinstance(target, str):
        raise TypeError("a target is a string such as 'top1_agreement>=0.995', not %r"
                        % (target,))
    conditions = []
    for part in [p for p in re.split(r",|\band\b", target) if p.strip()]:
        match = _CONDITION.match(part)
        if not match:
            raise _fail(target, "%r is not [output:]metric[.aggregate]>=bound (or <=), e.g. "
                        "'cosine.min>=0.999'" % part.strip())
        metric = match["metric"]
        if metric not in METRICS:
            import difflib
            close = difflib.get_close_matches(metric, sorted(METRICS), n=1)
            raise _fail(target, "unknown metric %r%s; the metrics are %s"
                        % (metric, "; did you mean %r?" % close[0] if close else "",
                           ", ".join(sorted(METRICS))))
        aggregate = match["aggregate"] or ("mean" if metric in AGREEMENT else "worst")
        if aggregate not in AGGREGATES:
            raise _fail(target, "unknown aggregate %r; the aggregates are %s"
                        % (aggregate, ", ".join(sorted(AGGREGATES))))
        better_high = higher_is_better(metric)
        if aggregate in ("min", "max"):
            if (aggregate == "min") != better_high:
                raise _fail(target, "%s.%s is the best sample, not the worst: a target on "
                            "every sample is %s.%s" % (metric, aggregate, metric,
                                                       "min" if better_high else "max"))
            aggregate = "worst"
        op = match["op"]
        if (op == ">=") != better_high:
            raise _fail(target, "%s grows %s with accuracy: write %s%s..."
                        % (metric, "better" if better_high else "worse", part.split(op)[0].strip(),
                           ">=" if better_high else "<="))
        try:
            bound = float(match["bound"])
        except ValueError:
            raise _fail(target, "%r is not a number" % match["bound"]) from None
        conditions.append(Condition(part.strip(), (match["output"] or "").strip(), metric,
                                    aggregate, op, bound))
    if not conditions:
        raise _fail(target, "no condition given")
    return conditions


class Verdict:
    """A plan against a target on the samples run so far."""

    def __init__(self, passed, failed, values, notes):
        self.passed = passed        # holds at every interval's worse end
        self.failed = failed        # fails at some interval's better end: settled
        self.values = values        # {condition text: (estimate, conservative bound)}
        self.notes = notes

    @property
    def undecided(self):
        return not self.passed and not self.failed


def judge(conditions, evaluation):
    passed, failed = True, False
    values, notes = {}, []
    for condition in conditions:
        outputs = [condition.output] if condition.output else list(evaluation.metrics)
        for output in outputs:
            if output not in evaluation.metrics:
                raise SearchError("the target names output %r; the model's outputs are %s"
                                  % (output, ", ".join(evaluation.metrics)), step="search",
                                  file="<options>")
            summary = evaluation.stat(output, condition.metric) \
                if condition.metric in evaluation.metrics[output] else None
            if not summary or not summary.get("n"):
                raise SearchError("output %r has no %s figure (%s is measured on class-score "
                                  "outputs, [C] or [N, C], or those given in class_axes; "
                                  "accuracy needs labels)" % (output, condition.metric,
                                                              condition.metric),
                                  step="search", file="<options>")
            bound, note = conservative_bound(summary, condition.aggregate, condition.metric)
            if note:
                notes.append("%s: %s" % (condition.text, note))
            estimate = summary["worst"] if condition.aggregate == "worst" else \
                summary[condition.aggregate]
            values["%s%s" % (output + ":" if len(outputs) > 1 or condition.output else "",
                             condition.text.split(":")[-1])] = (estimate, bound)
            if not condition.holds(bound):
                passed = False
            if not condition.holds(optimistic_bound(summary, condition.aggregate,
                                                    condition.metric)):
                failed = True
    return Verdict(passed and not failed, failed, values, notes)
