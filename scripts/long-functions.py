#!/usr/bin/env python3
"""Lists functions longer than a limit (default 150 lines) in C++ sources.

    scripts/long-functions.py [--limit N] [--check] DIR_OR_FILE...

A function is a brace block opened after a parameter list at namespace or
class scope; lambdas and nested blocks count toward the function holding
them. Comments, strings and character literals are ignored. With --check,
exits 1 when any function is over the limit (the ctest `style/function-length`).
"""

import argparse
import os
import re
import sys


def strip(text):
    """`text` with comments, strings and char literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = ")" + m.group(1) + '"'
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            # A digit separator (1'000) is not a literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


SCOPE = re.compile(r"\b(namespace|class|struct|union|enum|extern)\b[^;(){}]*$")


def functions(path):
    text = strip(open(path, encoding="utf-8", errors="replace").read())
    stack = []  # (kind, start line, name)
    line = 1
    head_start = 0  # where the text before the next brace begins
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
        elif c == "{":
            head = text[head_start:i]
            scoped = all(kind == "scope" for kind, _, _ in stack)
            if SCOPE.search(head.strip()) and scoped:
                stack.append(("scope", line, ""))
            elif scoped and ")" in head:
                name = re.findall(r"([~\w:]+)\s*\(", head)
                stack.append(("function", line, name[0] if name else "?"))
            else:
                stack.append(("block", line, ""))
            head_start = i + 1
        elif c == "}":
            if stack:
                kind, start, name = stack.pop()
                if kind == "function":
                    yield name, start, line
            head_start = i + 1
        elif c == ";":
            head_start = i + 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--limit", type=int, default=150)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    files = []
    for path in args.paths:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                files += [os.path.join(root, n) for n in names if n.endswith((".cpp", ".h"))]
        else:
            files.append(path)
    long = []
    for path in sorted(files):
        for name, start, end in functions(path):
            if end - start + 1 > args.limit:
                long.append((end - start + 1, path, start, name))
    for length, path, start, name in sorted(long, reverse=True):
        print("%s:%d: %s is %d lines (limit %d)" % (path, start, name, length, args.limit))
    if args.check and long:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
