#!/usr/bin/env python3
"""Checks that every rule ID of the behaviour contract has at least one test
named after it: a GoogleTest name containing PM_4_ (for PM-4) or a lit file
whose name contains -PM-4 / PM-4-. Prints the rules without one and fails."""

import re
import sys
from pathlib import Path

# The rule families of shared/spec/precision-semantics.md and their counts.
RULES = {"PM": 13, "ML": 9, "KD": 5, "CD": 8, "IM": 7, "OP": 5}


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    names = []
    for path in (root / "unittests").rglob("*.cpp"):
        names += re.findall(r"TEST(?:_F)?\(\s*\w+\s*,\s*(\w+)\)", path.read_text())
    files = [p.name for p in (root / "test").rglob("*") if p.is_file()]
    missing = []
    for family, count in RULES.items():
        for n in range(1, count + 1):
            underscore = re.compile(rf"(^|_){family}_{n}_")
            dash = re.compile(rf"(^|[-_.]){family}-{n}([-_.]|$)")
            if not any(underscore.search(t) for t in names) and \
               not any(dash.search(f) for f in files):
                missing.append(f"{family}-{n}")
    total = sum(RULES.values())
    if missing:
        print(f"rules without a test ({len(missing)} of {total}): " + ", ".join(missing))
        return 1
    print(f"all {total} rule IDs have a test")
    return 0


if __name__ == "__main__":
    sys.exit(main())
