"""Faults on the Python side (issue 55): a reference cache whose entries
are damaged or hostile never changes a figure, hangs or reads without
bound; a --data output folder never loses a user's file, never writes
through a symlink, and a signal at any moment leaves the old output or
the new one; the Python API's argument errors are Python's, raised before
any work (docs/reference/datasets.md, docs/python.md)."""

import hashlib
import json
import os
import random
import resource
import signal
import stat
import subprocess
import sys
import textwrap
import time
import warnings

import numpy as np
import pytest

import ascendprec
from ascendprec._refcache import ReferenceCacheWarning
from conftest import BUILD

SOC = "Ascend910B3"
SAMPLES = 4


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """Four samples of the example model's 1x3x16x16 input, one .npz each."""
    folder = tmp_path_factory.mktemp("faults-data")
    rng = np.random.default_rng(55)
    for i in range(SAMPLES):
        np.savez(folder / ("sample_%d.npz" % i),
                 image=rng.uniform(-1, 1, (1, 3, 16, 16)).astype(np.float32))
    return folder


@pytest.fixture(scope="module")
def example_plan(example_onnx):
    return ascendprec.plan(example_onnx, soc_version=SOC, precision_mode="force_fp16")


def figures(evaluation):
    """Every per-sample figure, as text (NaN compares equal)."""
    return json.dumps(list(evaluation.sample_rows()), sort_keys=True)


@pytest.fixture(scope="module")
def cache_off(example_plan, dataset):
    """The figures without any cache: what every damaged cache must give."""
    return figures(ascendprec.evaluate(example_plan, dataset, reference_cache=False,
                                       per_op=False, progress=False))


def evaluate_caught(plan, data, cache):
    """(evaluation, the reference cache's warnings)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluation = ascendprec.evaluate(plan, data, reference_cache=cache, per_op=False,
                                         progress=False)
    return evaluation, [str(w.message) for w in caught
                        if issubclass(w.category, ReferenceCacheWarning)]


def entries(folder):
    return sorted(str(p) for p in folder.glob("*/*.ref"))


@pytest.fixture
def warm_cache(example_plan, dataset, tmp_path):
    """A reference cache holding every sample's entry."""
    folder = tmp_path / "refs"
    evaluation, caught = evaluate_caught(example_plan, dataset, folder)
    assert evaluation.reference_runs == SAMPLES and not caught
    assert len(entries(folder)) == SAMPLES
    return folder


def assert_entries_rewritten_and_used(example_plan, dataset, folder, cache_off):
    evaluation, caught = evaluate_caught(example_plan, dataset, folder)
    assert evaluation.reference_runs == 0 and not caught, caught
    assert figures(evaluation) == cache_off


# -- the reference cache ----------------------------------------------------

def test_cache_folder_is_created_private(example_plan, dataset, tmp_path):
    folder = tmp_path / "new" / "refs"
    evaluate_caught(example_plan, dataset, folder)
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    for shard in folder.iterdir():
        assert stat.S_IMODE(os.stat(shard).st_mode) == 0o700


def test_bit_flipped_entries_give_cache_off_figures_a_warning_and_are_rewritten(
        example_plan, dataset, warm_cache, cache_off):
    rng = random.Random(55)
    for path in entries(warm_cache):
        data = bytearray(open(path, "rb").read())
        for _ in range(rng.randint(1, 4)):
            bit = rng.randrange(len(data) * 8)
            data[bit // 8] ^= 1 << (bit % 8)
        open(path, "wb").write(data)
    evaluation, caught = evaluate_caught(example_plan, dataset, warm_cache)
    assert figures(evaluation) == cache_off
    assert evaluation.reference_runs == SAMPLES
    assert len(caught) == SAMPLES
    for path in entries(warm_cache):
        assert sum(path in message for message in caught) == 1, caught
    assert all("rewritten" in message for message in caught)
    assert_entries_rewritten_and_used(example_plan, dataset, warm_cache, cache_off)


def test_truncated_entries_give_cache_off_figures_a_warning_and_are_rewritten(
        example_plan, dataset, warm_cache, cache_off):
    paths = entries(warm_cache)
    for path, keep in zip(paths, (0, 20, 0.5, -1)):
        size = os.path.getsize(path)
        os.truncate(path, int(size * keep) if isinstance(keep, float) else
                    keep if keep >= 0 else size + keep)
    evaluation, caught = evaluate_caught(example_plan, dataset, warm_cache)
    assert figures(evaluation) == cache_off
    assert len(caught) == SAMPLES and all(any(p in m for m in caught) for p in paths)
    assert any("truncated" in message for message in caught)
    assert_entries_rewritten_and_used(example_plan, dataset, warm_cache, cache_off)


def test_a_directory_entry_is_skipped_with_a_warning_and_left_alone(
        example_plan, dataset, warm_cache, cache_off):
    path = entries(warm_cache)[0]
    os.unlink(path)
    os.mkdir(path)
    os.mkdir(os.path.join(path, "inside"))
    warned = []
    for _ in range(2):   # the second run: still a folder, still not used
        evaluation, caught = evaluate_caught(example_plan, dataset, warm_cache)
        assert figures(evaluation) == cache_off
        assert evaluation.reference_runs == 1
        assert os.path.isdir(os.path.join(path, "inside"))
        warned.append(caught)
    # One warning per entry and process, naming it.
    assert len(warned[0]) == 1 and not warned[1], warned
    assert path in warned[0][0] and "a directory" in warned[0][0]
    assert "left alone" in warned[0][0]


HOSTILE_CHILD = textwrap.dedent("""
    import json, os, sys, warnings
    sys.path.insert(0, os.path.join(sys.argv[1], "python"))
    import ascendprec
    from ascendprec._refcache import ReferenceCacheWarning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluation = ascendprec.evaluate(sys.argv[2], sys.argv[3], soc_version="%s",
                                         precision_mode="force_fp16",
                                         reference_cache=sys.argv[4], per_op=False,
                                         progress=False)
    print(json.dumps({"figures": json.dumps(list(evaluation.sample_rows()), sort_keys=True),
                      "reference_runs": evaluation.reference_runs,
                      "warnings": [str(w.message) for w in caught
                                   if issubclass(w.category, ReferenceCacheWarning)]}))
""" % SOC)


def evaluate_in_child(example_onnx, dataset, cache):
    """The evaluation in a child process, under a timeout: a hang (a FIFO
    opened for reading, /dev/zero read to its end) fails the test."""
    try:
        finished = subprocess.run([sys.executable, "-c", HOSTILE_CHILD, BUILD, str(example_onnx),
                                   str(dataset), str(cache)], capture_output=True, text=True,
                                  timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("the evaluation hung on a hostile reference cache entry")
    assert finished.returncode == 0, finished.stderr
    return json.loads(finished.stdout.strip().splitlines()[-1])


def test_a_fifo_entry_never_hangs_and_is_left_alone(example_onnx, dataset, warm_cache,
                                                     cache_off):
    path = entries(warm_cache)[1]
    os.unlink(path)
    os.mkfifo(path)
    result = evaluate_in_child(example_onnx, dataset, warm_cache)
    assert result["figures"] == cache_off
    assert result["reference_runs"] == 1
    assert len(result["warnings"]) == 1 and path in result["warnings"][0]
    assert "FIFO" in result["warnings"][0]
    assert stat.S_ISFIFO(os.lstat(path).st_mode)


def test_a_symlink_to_dev_zero_is_never_read_and_is_replaced(example_onnx, dataset,
                                                              warm_cache, cache_off):
    path = entries(warm_cache)[2]
    os.unlink(path)
    os.symlink("/dev/zero", path)
    result = evaluate_in_child(example_onnx, dataset, warm_cache)
    assert result["figures"] == cache_off
    assert result["reference_runs"] == 1
    assert len(result["warnings"]) == 1 and "symlink" in result["warnings"][0]
    # Replaced by rename (the link, not /dev/zero, is what changed).
    assert stat.S_ISREG(os.lstat(path).st_mode)
    assert stat.S_ISCHR(os.stat("/dev/zero").st_mode)
    assert evaluate_in_child(example_onnx, dataset, warm_cache)["reference_runs"] == 0


@pytest.mark.skipif(os.geteuid() != 0, reason="chown to another user needs root")
def test_an_entry_owned_by_another_user_is_skipped_and_rewritten(
        example_plan, dataset, warm_cache, cache_off):
    path = entries(warm_cache)[3]
    os.chown(path, 65534, 65534)   # nobody
    evaluation, caught = evaluate_caught(example_plan, dataset, warm_cache)
    assert figures(evaluation) == cache_off
    assert evaluation.reference_runs == 1
    assert len(caught) == 1 and path in caught[0] and "uid 65534" in caught[0]
    assert os.lstat(path).st_uid == os.geteuid()
    assert_entries_rewritten_and_used(example_plan, dataset, warm_cache, cache_off)


@pytest.mark.parametrize("mode, who", [(0o770, "group"), (0o707, "others"),
                                       (0o777, "group and others")])
def test_a_group_or_world_writable_cache_folder_is_not_used(
        example_plan, dataset, warm_cache, cache_off, mode, who):
    before = {p: open(p, "rb").read() for p in entries(warm_cache)}
    os.chmod(warm_cache, mode)
    warned = []
    for _ in range(2):
        evaluation, caught = evaluate_caught(example_plan, dataset, warm_cache)
        assert figures(evaluation) == cache_off
        assert evaluation.reference_runs == SAMPLES   # no entry read
        warned.append(caught)
    assert {p: open(p, "rb").read() for p in entries(warm_cache)} == before   # none written
    # One warning (per process), naming the folder, why, and the fix.
    assert len(warned[0]) == 1 and not warned[1], warned
    assert str(warm_cache) in warned[0][0] and "chmod go-w" in warned[0][0]
    assert "writable by %s" % who in warned[0][0]


@pytest.mark.skipif(os.geteuid() != 0, reason="chown to another user needs root")
def test_a_cache_folder_owned_by_another_user_is_not_used(example_plan, dataset, warm_cache,
                                                          cache_off):
    os.chown(warm_cache, 65534, 65534)
    evaluation, caught = evaluate_caught(example_plan, dataset, warm_cache)
    assert figures(evaluation) == cache_off
    assert evaluation.reference_runs == SAMPLES
    assert len(caught) == 1 and "uid 65534" in caught[0]


# -- the --data output folder ---------------------------------------------

@pytest.fixture(scope="module")
def refs(tmp_path_factory):
    return tmp_path_factory.mktemp("faults-refs") / "refs"


def data_run(prec_compile, example_onnx, dataset, refs, output, *extra, timeout=180):
    return subprocess.run([prec_compile, str(example_onnx), "--soc_version=" + SOC,
                           "--data=%s" % dataset, "--output=%s" % output,
                           "--reference-cache=%s" % refs, "--quiet"] + list(extra),
                          capture_output=True, text=True, timeout=timeout)


def snapshot(folder):
    """Every entry under `folder`: a file's bytes, a symlink's target, a
    folder's presence (without following symlinks)."""
    found = {}
    for root, folders, files in os.walk(folder):
        for name in folders + files:
            path = os.path.join(root, name)
            relative = os.path.relpath(path, folder)
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                found[relative] = ("symlink", os.readlink(path))
            elif stat.S_ISREG(mode):
                found[relative] = ("file", open(path, "rb").read())
            else:
                found[relative] = ("folder" if stat.S_ISDIR(mode) else "other", None)
    return found


def manifest_consistent(folder):
    """The files the manifest lists, each with its recorded size and
    sha256, and nothing else in the folder: a complete output."""
    lines = open(os.path.join(folder, ".ascendprec-dataset")).read().split("\n")
    assert lines[0] == "ascendprec-dataset 2", lines
    listed = {}
    for line in filter(None, lines[1:]):
        digest, size, path = line.split(" ", 2)
        assert path not in listed, "a finished commit lists each file once"
        listed[path] = (int(size), digest)
    present = {}
    for relative, (kind, content) in snapshot(folder).items():
        if relative == ".ascendprec-dataset" or kind == "folder":
            continue
        assert kind == "file", relative
        present[relative] = (len(content), hashlib.sha256(content).hexdigest())
    assert present == listed
    return set(listed)


OUTPUTS = {"accuracy.json", "report.html", "report.txt", "samples.jsonl"}


@pytest.fixture
def written(prec_compile, example_onnx, dataset, refs, tmp_path):
    """An output folder a --data run wrote."""
    out = tmp_path / "out"
    finished = data_run(prec_compile, example_onnx, dataset, refs, out)
    assert finished.returncode == 0, finished.stderr
    assert manifest_consistent(out) == OUTPUTS
    return out


def refused(finished, *expected):
    assert finished.returncode == 1, finished.stdout + finished.stderr
    for text in expected:
        assert text in finished.stderr, finished.stderr
    assert "nothing was written" in finished.stderr


def test_a_replaced_output_file_is_kept_and_the_run_refused(prec_compile, example_onnx,
                                                            dataset, refs, written, tmp_path):
    (written / "report.txt").write_text("my own notes\n")
    accuracy = bytearray((written / "accuracy.json").read_bytes())
    accuracy[10] ^= 0x20   # the same size, other bytes
    (written / "accuracy.json").write_bytes(accuracy)
    before = snapshot(tmp_path)
    refused(data_run(prec_compile, example_onnx, dataset, refs, written),
            "changed since a --data run wrote them (accuracy.json, report.txt)")
    assert snapshot(tmp_path) == before


def test_a_symlinked_search_folder_is_not_followed(prec_compile, example_onnx, dataset, refs,
                                                   written, tmp_path):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "options.json").write_text('{"mine": true}\n')
    os.symlink(theirs, written / "search")
    before = snapshot(tmp_path)
    refused(data_run(prec_compile, example_onnx, dataset, refs, written,
                     "--search-precision=cosine.min>=0.99"), "search [a symlink]")
    assert snapshot(tmp_path) == before


def test_a_symlinked_output_file_is_not_followed(prec_compile, example_onnx, dataset, refs,
                                                 written, tmp_path):
    # Even a link to a file with the recorded content is not the tool's.
    theirs = tmp_path / "theirs.html"
    theirs.write_bytes((written / "report.html").read_bytes())
    os.unlink(written / "report.html")
    os.symlink(theirs, written / "report.html")
    before = snapshot(tmp_path)
    refused(data_run(prec_compile, example_onnx, dataset, refs, written),
            "did not write (report.html [a symlink])")
    assert snapshot(tmp_path) == before


def test_a_fifo_or_folder_where_an_output_goes_is_foreign(prec_compile, example_onnx,
                                                          dataset, refs, written, tmp_path):
    os.unlink(written / "samples.jsonl")
    os.mkfifo(written / "samples.jsonl")
    os.unlink(written / "report.txt")
    (written / "report.txt").mkdir()
    before = snapshot(tmp_path)
    refused(data_run(prec_compile, example_onnx, dataset, refs, written, timeout=60),
            "did not write (report.txt, samples.jsonl)")
    assert snapshot(tmp_path) == before


def test_a_hand_edited_manifest_cannot_claim_a_users_file(prec_compile, example_onnx,
                                                          dataset, refs, written, tmp_path):
    notes = b"my notes\n"
    (written / "notes.txt").write_bytes(notes)
    (tmp_path / "outside.txt").write_bytes(notes)
    line = "%s %d " % (hashlib.sha256(notes).hexdigest(), len(notes))
    with open(written / ".ascendprec-dataset", "a") as stream:
        for path in ("notes.txt", "../outside.txt", str(tmp_path / "outside.txt"),
                     "search/../notes.txt"):
            stream.write(line + path + "\n")
    before = snapshot(tmp_path)
    refused(data_run(prec_compile, example_onnx, dataset, refs, written),
            "did not write (notes.txt)")
    assert snapshot(tmp_path) == before
    # An older AscendPrec's manifest (names only) is not trusted either.
    (written / ".ascendprec-dataset").write_text("accuracy.json\nnotes.txt\n")
    before = snapshot(tmp_path)
    refused(data_run(prec_compile, example_onnx, dataset, refs, written),
            "notes.txt", "older AscendPrec")
    assert snapshot(tmp_path) == before


def test_a_refused_run_leaves_nothing_new(prec_compile, example_onnx, dataset, refs, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("notes\n")
    before = snapshot(tmp_path)
    refused(data_run(prec_compile, example_onnx, dataset, refs, mine),
            "did not write (notes.txt)")
    assert snapshot(tmp_path) == before   # no lock, temporary or staging file anywhere
    # A new folder whose run fails is removed again; an empty one given is kept.
    bad = tmp_path / "bad-data"
    bad.mkdir()
    np.savez(bad / "s.npz", image=np.zeros((1, 3, 8, 16), np.float32))
    assert data_run(prec_compile, example_onnx, bad, refs, tmp_path / "new").returncode == 1
    (tmp_path / "empty").mkdir()
    assert data_run(prec_compile, example_onnx, bad, refs, tmp_path / "empty").returncode == 1
    after = snapshot(tmp_path)
    assert "new" not in after and after["empty"] == ("folder", None)
    assert not [name for name in after if name.startswith("empty" + os.sep)]


def test_only_own_unchanged_files_are_replaced_or_removed(prec_compile, example_onnx, dataset,
                                                          refs, written):
    # A search's file the manifest records: removed by a run that writes none.
    options = b'{"precision_mode": "force_fp16"}\n'
    (written / "search").mkdir()
    (written / "search" / "options.json").write_bytes(options)
    with open(written / ".ascendprec-dataset", "a") as stream:
        stream.write("%s %d search/options.json\n" % (hashlib.sha256(options).hexdigest(),
                                                     len(options)))
    finished = data_run(prec_compile, example_onnx, dataset, refs, written, "--limit=2")
    assert finished.returncode == 0, finished.stderr
    assert manifest_consistent(written) == OUTPUTS
    assert not (written / "search").exists()
    assert "on 2 samples" in (written / "report.txt").read_text()


def test_abandoned_staging_is_removed_only_when_its_process_is_gone(
        prec_compile, example_onnx, dataset, refs, written):
    gone = subprocess.Popen(["true"])
    gone.wait()
    (written / (".staging-%d" % gone.pid)).mkdir()
    (written / (".staging-%d" % gone.pid) / "report.txt").write_text("half\n")
    live = written / (".staging-%d" % os.getpid())   # this process: alive
    live.mkdir()
    refused(data_run(prec_compile, example_onnx, dataset, refs, written),
            "being written by another --data run (process %d)" % os.getpid())
    assert (written / (".staging-%d" % gone.pid) / "report.txt").exists()
    live.rmdir()
    finished = data_run(prec_compile, example_onnx, dataset, refs, written)
    assert finished.returncode == 0, finished.stderr
    assert manifest_consistent(written) == OUTPUTS   # the abandoned staging is gone


def test_signals_at_random_points_leave_the_old_or_the_new_output(
        prec_compile, example_onnx, dataset, refs, tmp_path):
    out = tmp_path / "out"
    command = [prec_compile, str(example_onnx), "--soc_version=" + SOC, "--data=%s" % dataset,
               "--output=%s" % out, "--reference-cache=%s" % refs, "--quiet"]
    subprocess.run(command, check=True, capture_output=True, timeout=180)
    started = time.monotonic()
    subprocess.run(command + ["--limit=3"], check=True, capture_output=True, timeout=180)
    duration = time.monotonic() - started
    rng = random.Random(55)
    outcomes = {}
    for attempt in range(40):
        before = snapshot(out)
        signo = signal.SIGTERM if attempt % 8 else rng.choice([signal.SIGINT, signal.SIGHUP])
        process = subprocess.Popen(command + ["--limit=%d" % (2 + attempt % 3)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(rng.uniform(0, duration * 1.05))
        process.send_signal(signo)
        try:
            _, stderr = process.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            pytest.fail("a --data run did not end after %s" % signal.Signals(signo).name)
        code = process.returncode
        # Exit 128 + the signal; death by it before the Python package runs
        # (prec-compile's own handler) or after it returned (Python's
        # finalization restores the default action); or 0 when it had ended.
        assert code in (0, 128 + signo, -signo), (code, stderr)
        if code == 128 + signo:
            assert ("interrupted" if signo == signal.SIGINT else
                    "terminated by " + signal.Signals(signo).name) in stderr, stderr
        after = snapshot(out)
        assert not [name for name in after if ".staging-" in name], sorted(after)
        assert manifest_consistent(out) == OUTPUTS
        outcome = "old" if after == before else "new"
        outcomes[outcome, code] = outcomes.get((outcome, code), 0) + 1
    # The signals did land while runs were under way.
    assert sum(n for (outcome, code), n in outcomes.items() if code != 0) >= 10, outcomes


# -- the Python API's argument checks ---------------------------------------

def test_out_of_range_threads_and_seeds_raise_value_errors(example_plan, dataset):
    for kwargs, text in (({"threads": 2**40}, "threads takes a whole number from 1 to 256"),
                         ({"threads": -1}, "threads takes a whole number from 1"),
                         ({"threads": 0}, "threads takes a whole number from 1"),
                         ({"seed": 2**70}, "seed takes a whole number from 0 to 2**64-1"),
                         ({"seed": -1}, "seed takes a whole number from 0"),
                         ({"iterations": 2**32}, "iterations takes a whole number from 1")):
        with pytest.raises(ValueError) as error:
            example_plan.run(**kwargs)
        assert text in str(error.value), str(error.value)
        assert "incompatible function arguments" not in str(error.value)
    for kwargs in ({"threads": 1.5}, {"seed": "7"}, {"threads": True}):
        with pytest.raises(TypeError, match="takes a whole number, not"):
            example_plan.run(**kwargs)
    assert example_plan.run(seed=2**64 - 1).outputs["out"].shape == (1, 64, 8)
    with pytest.raises(ValueError, match="threads takes a whole number from 1 to 256"):
        ascendprec.evaluate(example_plan, dataset, threads=2**40, reference_cache=False)


def test_an_input_key_that_is_not_a_str_raises_type_error(example_plan):
    with pytest.raises(TypeError, match=r"the key 1 \(int\) is not a str"):
        example_plan.run({1: np.zeros((1, 3, 16, 16), np.float32)})


def test_a_huge_broadcast_view_is_refused_before_any_copy(example_plan):
    view = np.broadcast_to(np.float32(0), (2**31,))   # 8 GB if copied
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    with pytest.raises(ascendprec.RunError) as error:
        example_plan.run({"image": view})
    assert time.monotonic() - started < 1.0
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - grown < 100 << 10   # KiB
    assert error.value.message == ("input 'image' has shape [2147483648], but input 'image' "
                                   "takes [1,3,16,16]")
    # A view of the right shape is taken (and copied: it is small).
    result = example_plan.run({"image": np.broadcast_to(np.float32(0.5), (1, 3, 16, 16))})
    assert result.outputs["out"].shape == (1, 64, 8)


COMMIT_CHILD = textwrap.dedent("""
    import os, sys, time
    sys.path.insert(0, os.path.join(sys.argv[1], "python"))
    from ascendprec import _cli
    write = _cli.OutputFolder._write_manifest
    def slow(self, entries):
        write(self, entries)
        sys.stderr.write("manifest written\\n")
        sys.stderr.flush()
        time.sleep(0.5)   # the signal arrives here, mid-commit
    _cli.OutputFolder._write_manifest = slow
    sys.exit(_cli.main(sys.argv[2:]))
""")


@pytest.mark.parametrize("signo", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_signal_during_the_commit_waits_for_it_to_end(example_onnx, dataset, refs, written,
                                                        signo):
    old = (written / "report.txt").read_text()
    process = subprocess.Popen(
        [sys.executable, "-c", COMMIT_CHILD, BUILD, str(example_onnx), "--soc_version=" + SOC,
         "--data=%s" % dataset, "--output=%s" % written, "--reference-cache=%s" % refs,
         "--quiet", "--limit=2"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert process.stderr.readline() == "manifest written\n"   # the first of two
    process.send_signal(signo)
    stderr = process.stderr.read()
    assert process.wait(timeout=60) == 128 + signo, stderr
    assert "the output was written" in stderr
    assert manifest_consistent(written) == OUTPUTS
    assert "on 2 samples" in (written / "report.txt").read_text() != old
    assert not [name for name in os.listdir(written) if name.startswith(".staging-")]


def test_a_dataset_sample_key_that_is_not_a_str_raises_type_error(example_onnx):
    plan = ascendprec.plan(example_onnx, soc_version="Ascend910B3")
    image = np.zeros((1, 3, 16, 16), np.float32)
    with pytest.raises(TypeError, match=r"the key 1 \(int\) is not a str"):
        ascendprec.evaluate(plan, [{1: image}])
    with pytest.raises(TypeError, match=r"the key 1 \(int\) is not a str"):
        ascendprec.evaluate(plan, iter([{1: image}]))
