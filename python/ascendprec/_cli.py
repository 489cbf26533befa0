"""prec-compile --data: the command line's dataset runs.

prec-compile checks the command line (the model, CANN's options, its own
flags) and hands a run with ``--data`` to this module, which judges the
plan on every sample with the package's dataset engine and writes its
figures into the --output folder (docs/reference/datasets.md):

  accuracy.json     its "dataset" section: each mode's aggregates with 95%
                    intervals, the paired tests, the search's steps
  samples.jsonl     one line per sample and mode: every figure
  report.txt        what the terminal printed
  report.html       each mode's distribution (a CDF of per-sample cosine)
                    and the worst samples
  search/           options.json (and keep_dtype.cfg) reproducing the plan
                    found, with --search-precision

The folder is new, empty, or one an earlier --data run wrote (its
.ascendprec-dataset manifest lists what may be replaced); files are
staged and moved in at the end, so a failure leaves nothing behind.
The folder's manifest records each file's size and sha256: a file that no
longer has them is the user's, kept, and the run refused before any work.
Exit status as prec-compile's: 0, 1 user error, 2 internal error, 130
interrupted (SIGINT), 128 + the signal for SIGTERM and SIGHUP; a signal
leaves the old output or the new one, never a staging folder.
"""

import hashlib
import json
import os
import re
import shutil
import signal
import stat
import sys
import threading

from ._errors import Error, InternalError

MANIFEST = ".ascendprec-dataset"
MANIFEST_HEADER = "ascendprec-dataset 2"
# Everything a --data run writes, as paths under the output folder: a
# manifest line naming anything else (an absolute path, '..', notes.txt)
# is ignored, neither deleted nor trusted.
OUTPUT_FILES = frozenset({"accuracy.json", "samples.jsonl", "report.txt", "report.html",
                          "search/options.json", "search/keep_dtype.cfg"})
# A manifest lists each of OUTPUT_FILES at most twice (during a commit, the
# old and the new file): a larger file is not one this tool wrote.
MANIFEST_MAX = 64 << 10
_READ = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
_STAGING = re.compile(r"\.staging-([0-9]{1,7})")
_DIGEST = re.compile(r"[0-9a-f]{64}")
FLAGS = {"output", "data", "data-axis", "labels", "scheduler", "jobs", "threads",
         "reference-cache", "limit", "compare-modes", "search-precision", "search-budget",
         "quiet", "kernel-cache", "keep-io-dtypes", "fusion-respects-pins", "class-axis",
         "atc-refusals"}
IGNORED = {"explain", "full-constants", "run", "run-iterations"}
# --threads as prec-compile bounds it (each is a thread of the host run).
MAX_THREADS = 256


class UsageError(Exception):
    pass


def parse(argv):
    """(model, CANN options by name, the tool's flags)."""
    positional, options, flags = [], {}, {}
    for arg in argv:
        if not arg.startswith("--"):
            positional.append(arg)
            continue
        name, _, value = arg[2:].partition("=")
        if "=" not in arg:
            value = "true"
        if name in FLAGS or name in IGNORED:
            flags[name] = value
        else:
            options[name] = value
    model = positional[0] if positional else options.get("model")
    options.pop("model", None)
    options.pop("framework", None)
    if not model:
        raise UsageError("no model given")
    return model, options, flags


def _whole(flags, name, default, most=None):
    if name not in flags:
        return default
    try:
        value = int(flags[name])
    except ValueError:
        value = 0
    if value < 1 or (most is not None and value > most):
        raise UsageError("--%s takes a whole number from 1%s, not '%s'"
                         % (name, " to %d" % most if most else "", flags[name]))
    return value


def _integer(flags, name):
    try:
        return int(flags[name])
    except ValueError:
        raise UsageError("--%s takes a whole number, not '%s'" % (name, flags[name])) from None


def _client(address):
    try:
        import distributed
    except ImportError:
        raise UsageError("--scheduler needs Dask's python3-distributed (apt-get install "
                         "python3-distributed)") from None
    try:
        return distributed.Client(address, timeout=20)
    except (OSError, TimeoutError) as error:
        raise UsageError("--scheduler=%s: cannot reach the scheduler (%s); start one with "
                         "'dask scheduler' and workers with 'dask worker %s' (docs/reference/"
                         "datasets.md)" % (address, error, address)) from None


# -- signals: SIGINT, SIGTERM and SIGHUP leave the old output or the new ----

_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Terminated(BaseException):
    """SIGTERM or SIGHUP under main(), raised where the main thread was (as
    Python raises KeyboardInterrupt for SIGINT): the run stops and its
    staging folder is removed."""

    def __init__(self, signo):
        super().__init__(signo)
        self.signo = signo


class _Signals:
    received = None     # the first signal main()'s handlers caught
    raised = False      # ... and raised as an exception
    deferring = 0       # > 0 while a stage, commit or discard runs
    committed = False   # the output was moved in
    output = None       # the run's OutputFolder


def _interruption(signo):
    return KeyboardInterrupt() if signo == signal.SIGINT else Terminated(signo)


def _on_signal(signo, frame):
    if _Signals.received is None:
        _Signals.received = signo
    if _Signals.deferring or _Signals.raised:
        return   # the commit (or discard) finishes first; a second signal adds nothing
    _Signals.raised = True
    raise _interruption(_Signals.received)


def _install_signal_handlers():
    """SIGINT, SIGTERM and SIGHUP as exceptions, so that the run discards
    its staging folder (a signal ignored when the run started, as under
    nohup or '&', stays ignored)."""
    for signo in _SIGNALS:
        if signal.getsignal(signo) is not signal.SIG_IGN:
            signal.signal(signo, _on_signal)
    # prec-compile blocks them (its own cleanup thread takes them) and a
    # blocked mask survives its exec of this interpreter: unblocked here, a
    # signal that came meanwhile is raised now, before any work.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)


class _Deferred:
    """The block runs to its end: the signals main() handles are blocked in
    this thread and, if one arrives anyway (on another thread), raised only
    when the block ends."""

    def __enter__(self):
        _Signals.deferring += 1
        self.mask = None
        if threading.current_thread() is threading.main_thread():
            self.mask = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
        return self

    def __exit__(self, kind, value, traceback):
        if self.mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.mask)
        _Signals.deferring -= 1
        if kind is None and not _Signals.deferring and _Signals.received is not None \
                and not _Signals.raised:
            _Signals.raised = True
            raise _interruption(_Signals.received)
        return False


# -- the output folder, by content -----------------------------------------

def _file_digest(path, size=None):
    """(size, sha256) of the regular file `path`, opened without following
    a symlink or blocking; None if it is not a regular file (or, with
    `size`, not that size)."""
    try:
        handle = os.open(path, _READ)
    except OSError:
        return None
    try:
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode) or (size is not None and status.st_size != size):
            return None
        digest = hashlib.sha256()
        while True:
            chunk = os.read(handle, 1 << 20)
            if not chunk:
                break
            digest.update(chunk)
        return status.st_size, digest.hexdigest()
    finally:
        os.close(handle)


def read_manifest(folder):
    """({path: {(size, sha256), ...}} of the manifest's entries that name
    files a --data run writes, what is wrong with the manifest itself or "").
    A path may be listed twice while a commit moves files in."""
    entries = {}
    try:
        handle = os.open(os.path.join(folder, MANIFEST), _READ)
    except FileNotFoundError:
        return entries, ""
    except OSError:
        return entries, "a symlink or unreadable"
    try:
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode):
            return entries, "not a file"
        if status.st_size > MANIFEST_MAX:
            return entries, "larger than a manifest"
        data = os.read(handle, MANIFEST_MAX + 1)
    finally:
        os.close(handle)
    lines = data.decode("utf-8", "replace").split("\n")
    if lines[0] != MANIFEST_HEADER:
        return entries, "old"
    for line in lines[1:]:
        parts = line.split(" ", 2)
        if len(parts) != 3 or not _DIGEST.fullmatch(parts[0]) or not parts[1].isdigit() \
                or parts[2] not in OUTPUT_FILES:
            continue   # not a line this tool writes: ignored, not trusted
        entries.setdefault(parts[2], set()).add((int(parts[1]), parts[0]))
    return entries, ""


def _manifest_text(entries):
    """The manifest of [(path, size, sha256)]."""
    return MANIFEST_HEADER + "\n" + "".join("%s %d %s\n" % (digest, size, path)
                                            for path, size, digest in sorted(set(entries)))


def _process_gone(pid):
    if pid == os.getpid():
        return True   # an earlier process's, with this pid: this run has not staged yet
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError, ValueError):
        return False
    return False


class OutputFolder:
    """The --output folder of a dataset run: staged, then moved in.

    The folder's manifest (.ascendprec-dataset) records each file the last
    run wrote with its size and sha256; only a file that still has that
    content is the tool's to replace or remove. Anything else (a file the
    manifest does not list, a listed file that changed, a symlink or a
    folder where an output goes) is the user's: the run stops before any
    work, and again just before its commit, and touches nothing."""

    def __init__(self, path, inputs):
        self.path = path
        real = os.path.realpath(path)
        for given in inputs:
            if given and (os.path.realpath(given) == real or
                          os.path.realpath(given).startswith(real + os.sep)):
                raise UsageError("--output=%s holds an input (%s): give another folder"
                                 % (path, given))
        self.staging = None
        self.created = False
        self.committed = False
        self.own = {}          # {path: (size, sha256)} of the tool's files there now
        self.abandoned = []    # staging folders of runs that are gone
        if os.path.lexists(path):
            if os.path.islink(path) or not os.path.isdir(path):
                raise UsageError("--output=%s is not a folder" % path)
            self.own, self.abandoned = self._check()

    def _check(self):
        """({path: (size, sha256)} of the tool's own files, abandoned staging
        folders); a UsageError naming anything else."""
        trusted, manifest_problem = read_manifest(self.path)
        foreign, changed, own, abandoned = [], [], {}, []
        mine = os.path.basename(self.staging) if self.staging else None

        def judge(name):
            full = os.path.join(self.path, *name.split("/"))
            try:
                mode = os.lstat(full).st_mode
            except FileNotFoundError:
                return
            if stat.S_ISLNK(mode):
                foreign.append(name + " [a symlink]")
            elif not stat.S_ISREG(mode) or name not in trusted:
                foreign.append(name)
            else:
                found = _file_digest(full)
                if found in trusted[name]:
                    own[name] = found
                else:
                    changed.append(name)

        for name in sorted(os.listdir(self.path)):
            full = os.path.join(self.path, name)
            try:
                mode = os.lstat(full).st_mode
            except FileNotFoundError:
                continue
            staging = _STAGING.fullmatch(name)
            if name == mine:
                continue
            if name == MANIFEST:
                if manifest_problem and manifest_problem != "old":
                    foreign.append("%s [%s]" % (name, manifest_problem))
            elif staging and stat.S_ISDIR(mode) and not stat.S_ISLNK(mode):
                if not _process_gone(int(staging.group(1))):
                    raise UsageError("--output=%s is being written by another --data run "
                                     "(process %s): wait for it to end or give another "
                                     "folder; nothing was written" % (self.path,
                                                                     staging.group(1)))
                abandoned.append(full)
            elif name == "search" and stat.S_ISDIR(mode) and not stat.S_ISLNK(mode) and \
                    any(p.startswith("search/") for p in trusted):
                for inner in sorted(os.listdir(full)):
                    judge("search/" + inner)
            else:
                judge(name)
        if foreign:
            hint = ""
            if manifest_problem == "old":
                hint = (" (its %s is an older AscendPrec's, which did not record the files' "
                        "contents: remove them)" % MANIFEST)
            raise UsageError("--output=%s holds files a --data run did not write (%s)%s: give "
                             "a new or empty folder; nothing was written"
                             % (self.path, ", ".join(foreign[:5]), hint))
        if changed:
            raise UsageError("--output=%s holds files that changed since a --data run wrote "
                             "them (%s): they are yours now and kept; move them away or give "
                             "a new or empty folder; nothing was written"
                             % (self.path, ", ".join(changed[:5])))
        return own, abandoned

    def stage(self):
        _Signals.committed = False
        with _Deferred():
            if not os.path.lexists(self.path):
                os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
                os.mkdir(self.path)
                self.created = True
            for folder in self.abandoned:
                # lstat again: only a real folder, never through a symlink.
                if os.path.isdir(folder) and not os.path.islink(folder):
                    shutil.rmtree(folder, ignore_errors=True)
            self.staging = os.path.join(self.path, ".staging-%d" % os.getpid())
            os.mkdir(self.staging, 0o700)
        return self.staging

    def _staged(self):
        """{path: (size, sha256)} of the files staged."""
        staged = {}
        for root, folders, files in os.walk(self.staging):
            for name in files:
                full = os.path.join(root, name)
                relative = os.path.relpath(full, self.staging).replace(os.sep, "/")
                if relative not in OUTPUT_FILES:
                    raise InternalError("a --data run staged %s, which is not among the "
                                        "files it writes" % relative)
                staged[relative] = _file_digest(full)
        return staged

    def _write_manifest(self, entries):
        temporary = os.path.join(self.staging, MANIFEST + ".tmp")
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW |
                         os.O_CLOEXEC, 0o644)
        with os.fdopen(handle, "w") as stream:
            stream.write(_manifest_text(entries))
        os.replace(temporary, os.path.join(self.path, MANIFEST))

    def commit(self):
        """Moves the staged files in. The folder is checked again first;
        then, with SIGINT, SIGTERM and SIGHUP held: the manifest lists the
        old and the new files, the new ones are moved in, the old ones no
        longer written are removed (those that still have their recorded
        content), and the manifest lists the new ones."""
        self.own, _ = self._check()
        with _Deferred():
            staged = self._staged()
            self._write_manifest([(p, s, d) for p, (s, d) in self.own.items()] +
                                 [(p, s, d) for p, (s, d) in staged.items()])
            search = os.path.join(self.path, "search")
            if any(p.startswith("search/") for p in staged) and not os.path.lexists(search):
                os.mkdir(search)
            for relative in sorted(staged):
                os.replace(os.path.join(self.staging, *relative.split("/")),
                           os.path.join(self.path, *relative.split("/")))
            for relative, (size, digest) in sorted(self.own.items()):
                target = os.path.join(self.path, *relative.split("/"))
                if relative not in staged and _file_digest(target, size) == (size, digest):
                    os.unlink(target)
            if not any(p.startswith("search/") for p in staged) and \
                    any(p.startswith("search/") for p in self.own):
                try:
                    os.rmdir(search)   # only when empty
                except OSError:
                    pass
            self._write_manifest([(p, s, d) for p, (s, d) in staged.items()])
            shutil.rmtree(self.staging)
            self.staging = None
            self.committed = _Signals.committed = True
        return sorted({relative.split("/")[0] for relative in staged})

    def discard(self):
        with _Deferred():
            if self.staging and os.path.isdir(self.staging) and \
                    not os.path.islink(self.staging):
                shutil.rmtree(self.staging, ignore_errors=True)
            self.staging = None
            if self.created and not self.committed:
                try:
                    os.rmdir(self.path)   # only when empty
                except OSError:
                    pass


def run(argv):
    from . import _api
    from ._dataset_api import evaluate
    from ._report_html import dataset_html
    model, options, flags = parse(argv)
    if "output" not in flags:
        raise UsageError("--output=DIR is required")
    settings = {"data_axis": _integer(flags, "data-axis") if "data-axis" in flags else None,
                "labels": flags.get("labels"),
                "jobs": _whole(flags, "jobs", 1),
                "limit": _whole(flags, "limit", None),
                "reference_cache": flags.get("reference-cache", True)}
    if settings["reference_cache"] == "off":
        settings["reference_cache"] = False
    if "class-axis" in flags:
        name, _, axis = flags["class-axis"].rpartition(":")
        try:
            settings["class_axes"] = {name: int(axis)}
        except ValueError:
            name = ""
        if not name:
            raise UsageError("--class-axis takes OUTPUT:AXIS (e.g. logits:-1), not '%s'"
                             % flags["class-axis"])
    threads = _whole(flags, "threads", 1, MAX_THREADS)
    quiet = flags.get("quiet", "false") != "false"
    progress = False if quiet else None
    if "kernel-cache" in flags:
        from ._ascendprec import set_kernel_cache
        set_kernel_cache(flags["kernel-cache"])
    plan_flags = {"keep_io_dtypes": flags.get("keep-io-dtypes", "true") != "false",
                  "fusion_respects_pins": flags.get("fusion-respects-pins", "false") != "false"}
    if flags.get("atc-refusals", "warn") == "error":
        # As prec-compile --atc-refusals=error: a model ATC would refuse
        # (E13010) is a user error before any sample runs (prec-compile has
        # checked the flag's value).
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the dataset run shows them
            _api.plan(model, atc_refusals="error", **plan_flags, **options)
    inputs = [model, flags["data"]] + [v for k, v in options.items()
                                       if _option_is_path(k) and v]
    out = _Signals.output = OutputFolder(flags["output"], inputs)
    client = _client(flags["scheduler"]) if "scheduler" in flags else None
    if client is not None:
        settings["jobs"] = 1
        settings["client"] = client
    document, texts, evaluations = {"model": model, "data": flags["data"],
                                    "labels": flags.get("labels", ""),
                                    "options": options}, [], {}
    reference = ("each sample's fp32 reference: the plan under the options given, every "
                 "f16/bf16 widened to f32, on the exported weights; run once per sample and "
                 "cached")
    try:
        staged = out.stage()
        if "search-precision" in flags:
            found = _api.search_precision(model, flags["search-precision"], data=flags["data"],
                                          budget=_whole(flags, "search-budget", 24),
                                          threads=threads, progress=progress,
                                          **plan_flags, **settings, **options)
            texts.append(found.text)
            document["search"] = found.to_dict()
            # The plan found first, then every other candidate the search ran
            # (a failing one on the samples it took to fail).
            evaluations[found.message.split(",")[0]] = found.evaluation
            for label, evaluation in found.evaluations.items():
                if evaluation is not found.evaluation:
                    evaluations[label] = evaluation
            os.mkdir(os.path.join(staged, "search"))
            for name, text in found.files.items():
                with open(os.path.join(staged, "search", name), "w") as stream:
                    stream.write(text)
        elif "compare-modes" in flags:
            comparison = _api.compare_modes(model, data=flags["data"], threads=threads,
                                            progress=progress, **plan_flags, **settings,
                                            **options)
            texts.append(comparison.text)
            document["compare"] = comparison.to_dict()
            evaluations.update(comparison.evaluations)
        else:
            evaluation = evaluate(model, flags["data"], threads=threads, progress=progress,
                                  **plan_flags, **settings, **options)
            texts.append(evaluation.text)
            document["evaluation"] = evaluation.to_dict()
            evaluations[evaluation.label] = evaluation
        text = "\n".join(texts) + "\n"
        accuracy = {"inputs": "dataset " + flags["data"], "reference": reference,
                    "dataset": document}
        _write(staged, "accuracy.json", json.dumps(_finite(accuracy), indent=2, sort_keys=True))
        with open(os.path.join(staged, "samples.jsonl"), "w") as stream:
            for label, evaluation in evaluations.items():
                for row in evaluation.sample_rows():
                    stream.write(json.dumps(_finite(dict(row, plan=label)), sort_keys=True)
                                 + "\n")
        _write(staged, "report.txt", text)
        _write(staged, "report.html", dataset_html(model, flags["data"], evaluations, texts,
                                                   document.get("search")))
        written = out.commit()
    except BaseException:
        out.discard()
        raise
    finally:
        if client is not None:
            client.close()
    sys.stdout.write(text)
    sys.stdout.write("Wrote %s to %s\n" % (", ".join(written), flags["output"]))
    return 0


def _option_is_path(name):
    from ._ascendprec import _option_kind
    return _option_kind(name) in ("path", "directory")


def _finite(value):
    from ._evaluate import _finite as finite
    return finite(value)


def _write(folder, name, text):
    with open(os.path.join(folder, name), "w") as stream:
        stream.write(text if text.endswith("\n") else text + "\n")


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """Warnings as prec-compile prints them: one line, no source."""
    sys.stderr.write("prec-compile: warning: %s\n" % message)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    import warnings
    warnings.showwarning = _show_warning
    _Signals.received, _Signals.raised, _Signals.committed = None, False, False
    _Signals.output = None
    try:
        _install_signal_handlers()
        return run(argv)
    except UsageError as error:
        sys.stderr.write("<command line>: error: %s\n" % error)
        return 1
    except (KeyboardInterrupt, Terminated) as error:
        # The staging folder is gone (run() discarded it): the folder holds
        # the old output, or the new one if the commit had begun.
        if _Signals.output is not None:
            _Signals.output.discard()   # done already, unless the signal came just before
        signo = _Signals.received or getattr(error, "signo", signal.SIGINT)
        what = "the output was written" if _Signals.committed else "nothing was written"
        if signo == signal.SIGINT:
            sys.stderr.write("prec-compile: interrupted; %s\n" % what)
        else:
            sys.stderr.write("prec-compile: terminated by %s; %s\n"
                             % (signal.Signals(signo).name, what))
        return 128 + signo
    except InternalError as error:
        sys.stderr.write("prec-compile: internal error: %s\n" % error)
        return 2
    except Error as error:
        if error.command_line_text:
            # The engine's error as prec-compile words it.
            text = error.command_line_text
            sys.stderr.write(text if text.endswith("\n") else text + "\n")
            return 1
        location = error.location or ("<command line>" if error.step in ("options", "search")
                                      else "prec-compile")
        if location == "<options>":
            location = "<command line>"
        sys.stderr.write("%s: error: %s\n" % (location, error.message))
        for detail in error.details:
            sys.stderr.write("  %s\n" % detail)
        return 1
    except TypeError as error:
        sys.stderr.write("<command line>: error: %s\n" % error)
        return 1


if __name__ == "__main__":
    sys.exit(main())
