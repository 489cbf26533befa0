"""report.html of a dataset run: one page, no scripts, no outside files.

The headline names what was decided (after a search, the plan found);
then each plan's distribution over the samples as a CDF of 1 - cosine
(log scale: the tail a mean hides is where a deployment fails), the
figures with their intervals, and the worst samples by id.
"""

import html
import math

import numpy

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
           "#17becf"]


FLOOR = 1e-16


def _cdf_svg(evaluations, output, metric, width=900, height=300):
    """A step CDF per plan of 1 - cosine (metric "cosine") or of an error
    metric, x on a log scale (values under 1e-16 drawn at 1e-16)."""
    curves, low, high = [], None, None
    most = max(e.n for e in evaluations.values())
    for label, evaluation in evaluations.items():
        if evaluation.n < most:   # a search candidate stopped early
            label = "%s (%d samples)" % (label, evaluation.n)
        values = evaluation.values(output, metric)
        values = numpy.sort(1 - values if metric == "cosine" else values)
        values = numpy.clip(values[numpy.isfinite(values)], FLOOR, None)
        if values.size == 0:
            continue
        curves.append((label, values))
        low = values[0] if low is None else min(low, values[0])
        high = values[-1] if high is None else max(high, values[-1])
    if not curves:
        return "<p>No %s figures to draw.</p>" % metric
    if high <= FLOOR:
        return ("<p>%s: every plan is exact on every sample (below 1e-16).</p>"
                % ("1 - cosine" if metric == "cosine" else metric))
    lo, hi = math.floor(math.log10(low)), math.ceil(math.log10(high))
    if hi <= lo:
        hi = lo + 1
    left, right, top, bottom = 60, width - 330, 20, height - 40
    step = 1 if hi - lo <= 8 else 2   # every other decade when they crowd

    def x(v):
        return left + (math.log10(v) - lo) / (hi - lo) * (right - left)

    def y(fraction):
        return bottom - fraction * (bottom - top)

    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" '
             'aria-label="CDF of 1 - cosine per sample">' % (width, height),
             '<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#999"/>'
             % (left, top, right - left, bottom - top)]
    for exponent in range(lo, hi + 1):
        px = x(10.0 ** exponent)
        parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>'
                     % (px, top, px, bottom))
        if (exponent - lo) % step:
            continue
        parts.append('<text x="%.1f" y="%d" font-size="11" text-anchor="middle">1e%d</text>'
                     % (px, bottom + 15, exponent))
    for fraction in (0, 0.5, 1):
        parts.append('<text x="%d" y="%.1f" font-size="11" text-anchor="end">%g</text>'
                     % (left - 5, y(fraction) + 4, fraction))
    parts.append('<text x="%d" y="%d" font-size="12" text-anchor="middle">%s (per sample, '
                 'log scale)</text>' % ((left + right) // 2, height - 5,
                                        "1 - cosine" if metric == "cosine" else metric))
    parts.append('<text x="14" y="%d" font-size="12" transform="rotate(-90 14 %d)" '
                 'text-anchor="middle">share of samples</text>'
                 % ((top + bottom) // 2, (top + bottom) // 2))
    for index, (label, values) in enumerate(curves):
        colour = COLOURS[index % len(COLOURS)]
        points = ["%.1f,%.1f" % (left, y(0))]
        n = values.size
        for i, value in enumerate(values):
            points.append("%.1f,%.1f" % (x(value), y(i / n)))
            points.append("%.1f,%.1f" % (x(value), y((i + 1) / n)))
        points.append("%.1f,%.1f" % (right, y(1)))
        parts.append('<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>'
                     % (colour, " ".join(points)))
        parts.append('<rect x="%d" y="%d" width="12" height="3" fill="%s"/>'
                     % (right + 10, top + 8 + 16 * index, colour))
        parts.append('<text x="%d" y="%d" font-size="11">%s</text>'
                     % (right + 26, top + 13 + 16 * index, html.escape(label[:64])))
    parts.append("</svg>")
    return "\n".join(parts)


def _number(value, metric=""):
    if value is None:
        return "-"
    if isinstance(value, float) and not math.isfinite(value):
        return "inf" if value > 0 else "nan"
    if metric == "cosine":   # its news is in the ninth digit
        return "%.10f" % value
    return "%.7g" % value


def _figures_table(evaluations, output):
    metrics = ["cosine", "rel_rmse", "max_abs_err", "top1_agreement", "top1_accuracy", "kl"]
    rows = ["<table><tr><th>plan</th><th>est. device time</th><th>metric</th><th>mean "
            "[95% CI]</th><th>worst</th><th>p1</th><th>p5</th></tr>"]
    for label, evaluation in evaluations.items():
        shown = [m for m in metrics if m in evaluation.metrics.get(output, [])]
        for i, metric in enumerate(shown):
            s = evaluation.stat(output, metric)
            head = ('<td rowspan="%d">%s</td><td rowspan="%d">%s us</td>'
                    % (len(shown), html.escape(label), len(shown),
                       "%.1f" % evaluation.est_device_us
                       if evaluation.est_device_us is not None else "-")) if i == 0 else ""
            n = lambda value: _number(value, metric)  # noqa: E731
            rows.append("<tr>%s<td>%s</td><td>%s [%s, %s]</td><td>%s</td><td>%s</td><td>%s"
                        "</td></tr>" % (head, metric, n(s["mean"]), n(s["mean_ci"][0]),
                                        n(s["mean_ci"][1]), n(s["worst"]), n(s["p1"]),
                                        n(s["p5"])))
    rows.append("</table>")
    return "\n".join(rows)


def _worst_table(evaluations, output):
    rows = ["<table><tr><th>plan</th><th>worst samples by cosine (id: cosine)</th></tr>"]
    for label, evaluation in evaluations.items():
        worst = evaluation.stat(output, "cosine").get("worst_samples", [])
        rows.append("<tr><td>%s</td><td>%s</td></tr>" % (html.escape(label), ", ".join(
            "%s: %s" % (html.escape(str(sid)), _number(v, "cosine")) for sid, v in worst)))
    rows.append("</table>")
    return "\n".join(rows)


def dataset_html(model, data, evaluations, texts, search=None):
    first = next(iter(evaluations.values()))
    n = first.n
    if search:
        headline = "Plan found for %s: %s" % (search["target"], search["message"])
    elif len(evaluations) > 1:
        headline = "%d precision modes on %d samples" % (len(evaluations), n)
    else:
        headline = "%s on %d samples" % (first.label, n)
    body = ["<h1>%s</h1>" % html.escape(headline),
            "<p>Model <code>%s</code>, data <code>%s</code>. Every figure is per sample, "
            "against that sample's fp32 reference, and the intervals are 95%% "
            "(docs/reference/datasets.md).</p>" % (html.escape(str(model)),
                                                   html.escape(str(data)))]
    for output in first.metrics:
        body.append("<h2>Output %s</h2>" % html.escape(output))
        body.append("<p>Each plan's samples, sorted: the share of samples (up) whose error "
                    "is at most the value (across). A curve further left is more accurate; "
                    "its upper end is the worst sample.</p>")
        body.append(_cdf_svg(evaluations, output, "cosine"))
        body.append(_cdf_svg(evaluations, output, "rel_rmse"))
        body.append(_figures_table(evaluations, output))
        body.append("<h3>Worst samples</h3>")
        body.append(_worst_table(evaluations, output))
    body.append("<h2>What the terminal printed</h2><pre>%s</pre>"
                % html.escape("\n".join(texts)))
    style = ("body{font-family:sans-serif;max-width:980px;margin:2em auto;color:#222}"
             "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
             "padding:3px 8px;font-size:13px;text-align:left}pre{background:#f6f6f6;"
             "padding:1em;overflow:auto;font-size:12px}")
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title><style>%s"
            "</style></head><body>\n%s\n</body></html>\n"
            % (html.escape(headline), style, "\n".join(body)))
