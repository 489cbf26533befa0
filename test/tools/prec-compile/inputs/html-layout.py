#!/usr/bin/env python3
"""Checks report.html's layout in headless Chromium at a 1400 px window:

  html-layout.py CHROMIUM REPORT.html

- the page is no wider than the window (nothing to scroll sideways): the
  browser's own measure, document.documentElement.scrollWidth, read by a
  wrapper page that holds the report in a 1400 px frame;
- the labels of every plot lie apart (no two text boxes intersect) and
  inside their plot; the modes plot has its target line when the search's
  target is a rel_rmse bound;
- a screenshot at 1400 px has only background in its rightmost 16 px: no
  table or plot runs off the right edge.

Prints one line per check; exits 1 on the first failure."""

import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

WIDTH = 1400

PROBE = """<!doctype html><html><body style="margin:0">
<iframe id="report" src="%s" style="width:%dpx;height:900px;border:0"></iframe>
<pre id="result">pending</pre>
<script>
document.getElementById('report').onload = function () {
  var doc = this.contentDocument, lines = [];
  lines.push('scrollWidth ' + doc.documentElement.scrollWidth);
  var plots = doc.querySelectorAll('svg.plot');
  lines.push('plots ' + plots.length);
  Array.prototype.forEach.call(plots, function (svg, p) {
    var frame = svg.getBoundingClientRect();
    var boxes = Array.prototype.map.call(svg.querySelectorAll('text'), function (t) {
      var r = t.getBoundingClientRect();
      return {text: t.textContent, l: r.left, t: r.top, r: r.right, b: r.bottom};
    });
    boxes.forEach(function (a, i) {
      if (a.l < frame.left - 0.5 || a.r > frame.right + 0.5 || a.t < frame.top - 0.5 ||
          a.b > frame.bottom + 0.5)
        lines.push('outside ' + p + ' ' + a.text);
      boxes.slice(i + 1).forEach(function (b) {
        var w = Math.min(a.r, b.r) - Math.max(a.l, b.l);
        var h = Math.min(a.b, b.b) - Math.max(a.t, b.t);
        if (w > 0.5 && h > 0.5)
          lines.push('overlap ' + p + ' ' + a.text + ' | ' + b.text);
      });
    });
    lines.push('targets ' + p + ' ' + svg.querySelectorAll('line.target').length);
  });
  document.getElementById('result').textContent = lines.join('\\n');
};
</script></body></html>
"""


def png_pixels(data):
    """(width, height, rows of RGBA bytes) of an 8-bit RGB/RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0, "unexpected PNG format"
    channels = 4 if color == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[x] = (line[x] + pred) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def chromium(binary, args):
    proc = subprocess.run([binary, "--headless", "--no-sandbox", "--disable-gpu",
                           "--hide-scrollbars", "--allow-file-access-from-files"] + args,
                          capture_output=True, text=True, timeout=180)
    if proc.returncode != 0:
        sys.exit(f"FAIL: chromium exited with {proc.returncode}:\n{proc.stderr[-2000:]}")
    return proc.stdout


def main():
    binary, report = sys.argv[1], Path(sys.argv[2]).resolve()
    with tempfile.TemporaryDirectory() as folder:
        probe = Path(folder) / "probe.html"
        probe.write_text(PROBE % (report.as_uri(), WIDTH), encoding="utf-8")
        dom = chromium(binary, [f"--window-size={WIDTH + 40},900", "--virtual-time-budget=5000",
                                "--dump-dom", probe.as_uri()])
        result = dom.split('<pre id="result">', 1)[1].split("</pre>", 1)[0]
        lines = result.splitlines()
        facts = dict(l.split(" ", 1) for l in lines if l.startswith(("scrollWidth", "plots")))
        if "scrollWidth" not in facts:
            sys.exit(f"FAIL: the probe did not run: {result[:500]}")
        if int(facts["scrollWidth"]) > WIDTH:
            sys.exit(f"FAIL: the page is {facts['scrollWidth']} px wide in a {WIDTH} px window")
        print(f"ok: the page fits {WIDTH} px")
        problems = [l for l in lines if l.startswith(("overlap", "outside"))]
        if problems:
            sys.exit("FAIL: plot labels:\n" + "\n".join(problems))
        print(f"ok: the labels of {facts['plots']} plots lie apart, inside their plots")
        for line in lines:
            if line.startswith("targets"):
                print(f"plot {line.split()[1]}: {line.split()[2]} target line(s)")

        shot = Path(folder) / "shot.png"
        chromium(binary, [f"--window-size={WIDTH},3000", f"--screenshot={shot}",
                          report.as_uri()])
        width, height, channels, rows = png_pixels(shot.read_bytes())
        if width != WIDTH:
            sys.exit(f"FAIL: the screenshot is {width} px wide")
        background = rows[0][:channels]
        for y, row in enumerate(rows):
            edge = row[(width - 16) * channels:]
            for x in range(16):
                if edge[x * channels:(x + 1) * channels] != background:
                    sys.exit(f"FAIL: the screenshot has content at x={width - 16 + x}, y={y}: "
                             "something runs off the right edge")
        print(f"ok: a {width}x{height} screenshot has only background in its rightmost 16 px")


if __name__ == "__main__":
    main()
