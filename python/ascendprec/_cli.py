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
Exit status as prec-compile's: 0, 1 user error, 2 internal error, 130
interrupted.
"""

import json
import os
import shutil
import sys

from ._errors import Error, InternalError

MANIFEST = ".ascendprec-dataset"
FLAGS = {"output", "data", "data-axis", "labels", "scheduler", "jobs", "threads",
         "reference-cache", "limit", "compare-modes", "search-precision", "search-budget",
         "quiet", "kernel-cache", "keep-io-dtypes", "fusion-respects-pins", "class-axis"}
IGNORED = {"explain", "full-constants", "run", "run-iterations"}


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


def _whole(flags, name, default):
    if name not in flags:
        return default
    try:
        value = int(flags[name])
    except ValueError:
        value = 0
    if value < 1:
        raise UsageError("--%s takes a whole number from 1, not '%s'" % (name, flags[name]))
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


class OutputFolder:
    """The --output folder of a dataset run: staged, then moved in."""

    def __init__(self, path, inputs):
        self.path = path
        real = os.path.realpath(path)
        for given in inputs:
            if given and (os.path.realpath(given) == real or
                          os.path.realpath(given).startswith(real + os.sep)):
                raise UsageError("--output=%s holds an input (%s): give another folder"
                                 % (path, given))
        self.previous = []
        if os.path.lexists(path):
            if os.path.islink(path) or not os.path.isdir(path):
                raise UsageError("--output=%s is not a folder" % path)
            manifest = os.path.join(path, MANIFEST)
            entries = set(os.listdir(path))
            if os.path.isfile(manifest):
                with open(manifest) as stream:
                    self.previous = [line.strip() for line in stream if line.strip()]
            foreign = sorted(entries - set(self.previous) - {MANIFEST})
            if foreign:
                raise UsageError("--output=%s holds files a --data run did not write (%s): give "
                                 "a new or empty folder; nothing was written"
                                 % (path, ", ".join(foreign[:5])))
        self.staging = None

    def stage(self):
        os.makedirs(self.path, exist_ok=True)
        self.staging = os.path.join(self.path, ".staging-%d" % os.getpid())
        os.mkdir(self.staging)
        return self.staging

    def commit(self):
        written = sorted(os.listdir(self.staging))
        for name in self.previous:
            target = os.path.join(self.path, name)
            if name not in written and os.path.lexists(target) and not os.path.islink(target):
                shutil.rmtree(target) if os.path.isdir(target) else os.unlink(target)
        for name in written:
            target = os.path.join(self.path, name)
            if os.path.isdir(target) and not os.path.islink(target):
                shutil.rmtree(target)
            os.replace(os.path.join(self.staging, name), target)
        with open(os.path.join(self.path, MANIFEST), "w") as stream:
            stream.write("".join(name + "\n" for name in written))
        os.rmdir(self.staging)
        return written

    def discard(self):
        if self.staging and os.path.isdir(self.staging):
            shutil.rmtree(self.staging, ignore_errors=True)
            if not os.listdir(self.path):
                os.rmdir(self.path)


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
    threads = _whole(flags, "threads", 1)
    quiet = flags.get("quiet", "false") != "false"
    progress = False if quiet else None
    if "kernel-cache" in flags:
        from ._ascendprec import set_kernel_cache
        set_kernel_cache(flags["kernel-cache"])
    inputs = [model, flags["data"]] + [v for k, v in options.items()
                                       if _option_is_path(k) and v]
    out = OutputFolder(flags["output"], inputs)
    client = _client(flags["scheduler"]) if "scheduler" in flags else None
    if client is not None:
        settings["jobs"] = 1
        settings["client"] = client
    plan_flags = {"keep_io_dtypes": flags.get("keep-io-dtypes", "true") != "false",
                  "fusion_respects_pins": flags.get("fusion-respects-pins", "false") != "false"}
    document, texts, evaluations = {"model": model, "data": flags["data"],
                                    "labels": flags.get("labels", ""),
                                    "options": options}, [], {}
    reference = ("each sample's fp32 reference: the plan under the options given, every "
                 "f16/bf16 widened to f32, on the exported weights; run once per sample and "
                 "cached")
    staged = out.stage()
    try:
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
    try:
        return run(argv)
    except UsageError as error:
        sys.stderr.write("<command line>: error: %s\n" % error)
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("prec-compile: interrupted; nothing was written\n")
        return 130
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
