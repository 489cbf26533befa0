#!/usr/bin/env python3
"""Runs a command and succeeds only if it exits with the given status.
Usage: expect-exit.py STATUS COMMAND [ARGS...]  (output passes through)"""

import subprocess
import sys

status = subprocess.call(sys.argv[2:])
if status != int(sys.argv[1]):
    print(f"expected exit status {sys.argv[1]}, got {status}", file=sys.stderr)
    sys.exit(1)
