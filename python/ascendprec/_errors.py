"""The exceptions ascendprec raises, and the engine's messages in Python's
words.

Every failure of the engine is an :class:`Error` carrying where it happened
(``file``, ``line``, ``column``, ``node``), the contract rule that decided it
(``rule``, e.g. ``"KD-1"``; see precision-semantics.md), the message, and the
diagnostics gathered so far. The subclass says which step failed.
"""


import re

# The engine's messages name things as prec-compile's command line does;
# in Python they are keyword arguments and methods.
_PYTHONIC = [
    (re.compile(r'--search-precision="([^"]*)"'), r'"\1"'),
    (re.compile(r"--search-precision\b"), "search_precision's target"),
    (re.compile(r"--search-budget\b"), "budget"),
    (re.compile(r"--run-range\b"), "ranges"),
    (re.compile(r"--run-seed\b"), "seed"),
    (re.compile(r"--run-iterations\b"), "iterations"),
    (re.compile(r"--run=([^\s:]+)"), r"run_folder=\1"),
    (re.compile(r"--output=([^\s:,;)]+)"), r"write('\1')"),
    (re.compile(r"--kernel-cache\b"), "set_kernel_cache()"),
    (re.compile(r'--input_shape="([^"]*)" \(ATC\'s syntax\)'), r'input_shape="\1"'),
    (re.compile(r"--([a-z][a-z0-9_]*)\b"), r"\1"),
    (re.compile(r"<command line>"), "<options>"),
    (re.compile(r"prec-compile did not write"), "AscendPrec did not write"),
    (re.compile(r"per-op errors in accuracy\.json"), "per-op errors in RunResult.ops"),
    (re.compile(r"report\.txt has them all"), "Plan.ops has them all"),
]


def pythonic(text):
    """`text` with the command line's names replaced by the Python API's."""
    for pattern, replacement in _PYTHONIC:
        text = pattern.sub(replacement, text)
    return text


class Error(Exception):
    """A failure of the engine: the user's input, or (InternalError) its own."""

    def __init__(self, message, *, step="", kind="user", file="", line=0,
                 column=0, node="", rule="", details=(), diagnostics=(),
                 text=""):
        super().__init__(text or message)
        self.message = message
        self.step = step
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.node = node
        self.rule = rule
        self.details = list(details)
        self.diagnostics = list(diagnostics)
        self.command_line_text = ""

    @property
    def location(self):
        """"file:line:column", "file" or "" (the run as a whole)."""
        if not self.file:
            return ""
        if self.line:
            return "%s:%d:%d" % (self.file, self.line, self.column)
        return self.file


class OptionError(Error):
    """A CANN option or one of its files is wrong (resolving the options)."""


class ModelError(Error):
    """The model does not load, or its plan breaks a rule (load, plan)."""


class RunError(Error):
    """The inputs do not fit the model, or the plan cannot run on the host."""


class SearchError(Error):
    """The accuracy target is malformed, names an output the model lacks,
    or cannot be met."""


class OutputError(Error):
    """The output folder may not be written (it holds an input, files
    ascendprec did not write, ...)."""


class InternalError(Error):
    """AscendPrec's own failure: please report it with the model."""


_BY_STEP = {
    "options": OptionError,
    "load": ModelError,
    "plan": ModelError,
    "run": RunError,
    "compare": RunError,
    "search": SearchError,
    "write": OutputError,
}


def from_engine(step, kind, file, line, column, node, rule, message, details,
                diagnostics, text):
    """The exception for a failed engine step (called by _ascendprec)."""
    cls = InternalError if kind == "internal" else _BY_STEP.get(step, Error)
    diagnostics = [dict(d, message=pythonic(d["message"]), file=pythonic(d["file"]))
                   for d in diagnostics]
    error = cls(pythonic(message), step=step, kind=kind, file=pythonic(file),
                line=line, column=column, node=node, rule=rule,
                details=[pythonic(d) for d in details], diagnostics=diagnostics,
                text=pythonic(text))
    # prec-compile --data prints the engine's own words (--input_shape).
    error.command_line_text = text
    return error
