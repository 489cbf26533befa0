"""The exceptions ascendprec raises.

Every failure of the engine is an :class:`Error` carrying where it happened
(``file``, ``line``, ``column``, ``node``), the contract rule that decided it
(``rule``, e.g. ``"KD-1"``; see precision-semantics.md), the message, and the
diagnostics gathered so far. The subclass says which step failed.
"""


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
    return cls(message, step=step, kind=kind, file=file, line=line,
               column=column, node=node, rule=rule, details=details,
               diagnostics=diagnostics, text=text)
