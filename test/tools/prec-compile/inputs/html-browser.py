#!/usr/bin/env python3
"""Opens report.html in headless Chromium the way a person would and checks
it works: the page's script runs without an error on the console, the
filter (given in the URL, report.html#filter=WORDS, as typing it would)
narrows the op rows to exactly those containing every word, and the
counter says so.

  html-browser.py CHROMIUM REPORT.html "WORDS"

Prints one line per check; exits 1 on the first failure."""

import html
import re
import subprocess
import sys
import urllib.parse
from pathlib import Path


def op_rows(page):
    """The rows of the ops table's body, as (opening tag, row HTML)."""
    body = page.split('<table id="ops">', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"(<tr[^>]*>)(.*?)</tr>", body, re.S)


def row_text(row_html):
    """What the page's filter searches: the row's cells' text joined by
    spaces, in lower case."""
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row_html, re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]*>", "", c)) for c in cells).lower()


def main():
    chromium, report, words = sys.argv[1], Path(sys.argv[2]).resolve(), sys.argv[3]
    source = report.read_text(encoding="utf-8")
    searches = [row_text(row) for _, row in op_rows(source)]
    wanted = [w for w in words.lower().split() if w]
    expected = sum(all(w in s for w in wanted) for s in searches)
    url = report.as_uri() + "#filter=" + urllib.parse.quote(words)
    proc = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                           "--enable-logging=stderr", "--v=0", "--dump-dom", url],
                          capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        sys.exit(f"FAIL: chromium exited with {proc.returncode}:\n{proc.stderr[-2000:]}")
    errors = [l for l in proc.stderr.splitlines() if "CONSOLE" in l and
              ("Uncaught" in l or "Error" in l)]
    if errors:
        sys.exit("FAIL: script errors on the console:\n" + "\n".join(errors))
    print("ok: no script error on the console")
    dom = proc.stdout
    rows = [tag for tag, _ in op_rows(dom)]
    visible = [r for r in rows if " hidden" not in r]
    if len(rows) != len(searches):
        sys.exit(f"FAIL: the page has {len(rows)} op rows, the file {len(searches)}")
    if len(visible) != expected or not 0 < expected < len(rows):
        sys.exit(f"FAIL: filter '{words}' shows {len(visible)} of {len(rows)} rows; "
                 f"{expected} contain every word")
    counter = re.search(r'id="shown">([^<]*)<', dom)
    if not counter or counter.group(1) != f"{expected} of {len(rows)} rows":
        sys.exit(f"FAIL: the counter says {counter.group(1) if counter else 'nothing'}")
    print(f"ok: filter '{words}' shows {expected} of {len(rows)} rows")


if __name__ == "__main__":
    main()
