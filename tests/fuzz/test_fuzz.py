"""A fast deterministic slice of the fuzzer, and tests of the fuzzer itself.

The slice must find nothing: any crash or hang it reports is a memory-safety bug in engine, rerun
alone with the command printed in the failure message.
"""

import json
import shutil

import pytest

from . import classify, driver, targets, worker

SLICE_SEED = 2024
SLICE_CALLS = 600


def _run(**kwargs):
    kwargs.setdefault("jobs", 2)
    kwargs.setdefault("verify", False)
    return driver.run(driver.Config(**kwargs))


def test_slice_has_no_crashes_or_hangs():
    result = _run(seed=SLICE_SEED, calls=SLICE_CALLS, batch=SLICE_CALLS // 2)
    assert result.calls == SLICE_CALLS
    assert not result.failed, result.to_text()


def test_detects_abort_and_continues_after_it():
    result = _run(seed=1, calls=8, jobs=1, verify=True, inject={3: "import os\nos.abort()"})
    assert [(c.index, c.kind, c.label) for c in result.crashes] == [(3, "SIGABRT", "injected")]
    assert result.crashes[0].reproduces is True
    assert "os.abort()" in result.crashes[0].code
    assert "--seed 1 --start 3 --calls 1" in result.crashes[0].repro()
    assert result.calls == 8  # the calls after the crash ran in a new child
    assert result.failed


def test_detects_segfault_with_its_python_traceback():
    result = _run(seed=1, calls=3, jobs=1, inject={1: "import ctypes\nctypes.string_at(0)"})
    (crash,) = result.crashes
    # Under .ci/sanitize, ASan reports the fault and then aborts (abort_on_error=1).
    expected = "SIGABRT" if worker.under_sanitizer() else "SIGSEGV"
    assert (crash.index, crash.kind) == (1, expected)
    assert "<fuzz 1:1>" in crash.details  # faulthandler's dump names the generated call


def test_detects_hang():
    result = _run(seed=1, calls=2, jobs=1, call_timeout=2, inject={0: "while True:\n    pass"})
    assert [(h.index, h.kind) for h in result.hangs] == [(0, "hang")]
    assert not result.crashes
    assert result.calls == 2


def test_finds_the_call_behind_a_crash_at_exit():
    leak = "import atexit, os\natexit.register(os.abort)"
    result = _run(seed=1, calls=6, jobs=1, inject={4: leak})
    (crash,) = result.crashes
    assert crash.index is None and crash.label == "<exit>"
    assert crash.culprit is not None and crash.culprit["i"] == 4


def test_a_call_depends_only_on_seed_and_index():
    import engine

    catalog = targets.discover(engine)
    forward = [targets.generate(worker.call_rng(7, i), catalog) for i in range(60)]
    backward = [targets.generate(worker.call_rng(7, i), catalog) for i in reversed(range(60))]
    assert forward == backward[::-1]
    assert forward != [targets.generate(worker.call_rng(8, i), catalog) for i in range(60)]


def test_a_logged_call_reruns_alone(tmp_path):
    _run(seed=5, calls=12, jobs=1, workdir=str(tmp_path / "all"))
    _run(seed=5, start=9, calls=1, jobs=1, workdir=str(tmp_path / "one"))

    def starts(folder):
        out = {}
        for log in sorted(folder.glob("child-*.log")):
            for line in log.read_text().splitlines():
                record = json.loads(line)
                if record["ev"] == "start":
                    out[record["i"]] = record["code"]
        return out

    assert starts(tmp_path / "one") == {9: starts(tmp_path / "all")[9]}


def test_unclear_messages():
    assert classify.unclear_reason(TypeError("expected a Tensor, got str")) is None
    assert classify.unclear_reason(RuntimeError("Unable to cast Python instance to C++ type"))
    assert classify.unclear_reason(TypeError("f(): incompatible function arguments. Invoked with"))
    assert (
        classify.unclear_reason(RuntimeError("ZeroDivisionError")) == "message is only a class name"
    )
    assert classify.unclear_reason(SystemError("error return without exception set"))
    assert classify.unclear_reason(RuntimeError("std::bad_alloc"))
    own = type("Own", (Exception,), {})
    assert classify.unclear_reason(own("mine"), own_types=(own,)) is None
    assert classify.normalise("index 5 is out of bounds at 0x7f00") == classify.normalise(
        "index 7 is out of bounds at 0x1234"
    )


def test_sanitize_runs_children_like_ci_sanitize(tmp_path, monkeypatch):
    monkeypatch.setattr(driver, "SANITIZE_BUILD", tmp_path)
    with pytest.raises(driver.SetupError, match="bash .ci/sanitize"):
        driver._sanitizer_env(str(tmp_path), 1)
    (tmp_path / "pkg" / "engine").mkdir(parents=True)
    (tmp_path / "pkg" / "engine" / "_C.cpython-311-x86_64-linux-gnu.so").touch()
    if shutil.which("g++") is None:
        pytest.skip("g++ locates the sanitizer runtimes")
    env = driver._sanitizer_env("/work", 7)
    assert env["PYTHONPATH"] == str(tmp_path / "pkg")
    assert [p.rsplit("/", 1)[-1] for p in env["LD_PRELOAD"].split(":")] == [
        "libasan.so",
        "libubsan.so",
    ]
    asan = dict(o.split("=", 1) for o in env["ASAN_OPTIONS"].split(":"))
    assert asan["detect_leaks"] == "0" and asan["log_path"] == "/work/asan-7"
    assert asan["allocator_may_return_null"] == "1" and asan["max_allocation_size_mb"] == "4096"
    ubsan = dict(o.split("=", 1) for o in env["UBSAN_OPTIONS"].split(":"))
    assert ubsan["halt_on_error"] == "1" and ubsan["print_stacktrace"] == "1"
    assert ubsan["log_path"] == "/work/ubsan-7"
