"""The parent: hands out ranges of call indices to child processes and collects what happened.

Calls ``[start, start + calls)`` are cut into batches. Up to ``jobs`` children run at once, each on
one batch. When a child dies, the last call it logged as started without an end is the crash (or,
when the parent killed it for making no progress, the hang); a new child continues from the next
call. Nothing here imports engine, so the parent survives whatever the children do.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import report
from .worker import SETUP_FAILED

PACKAGE = __package__  # "tests.fuzz" from the repo root, "fuzz" when pytest imports it
PACKAGE_PARENT = Path(__file__).resolve().parents[len(PACKAGE.split("."))]
REPO = Path(__file__).resolve().parents[2]
SANITIZE_BUILD = REPO / "build" / "sanitize"
SETUP_TIMEOUT = 120.0  # seconds a child may take to import engine and list the targets


# In place of the RLIMIT_AS that ASan's shadow memory rules out: an allocation over 4 GiB returns
# NULL, so engine must raise (as it would without ASan) instead of ASan aborting on its own size
# limit, and no single tensor can push the machine into swapping or the OOM killer.
ASAN_MEMORY = "allocator_may_return_null=1:max_allocation_size_mb=4096"


class SetupError(RuntimeError):
    """The run could not start (no sanitizer build, engine not importable)."""


@dataclass
class Config:
    seed: int = 0
    start: int = 0
    calls: int = 1000
    jobs: int = 1
    batch: int = 500
    time_budget: float = 0.0  # seconds; 0 means no limit
    call_timeout: float = 30.0  # a child that logs nothing for this long is hung
    memory_gib: float = 4.0
    sanitize: bool = False
    verify: bool = True  # rerun each crash group's first call alone to check it reproduces
    inject: dict = field(default_factory=dict)  # index -> source, for testing the fuzzer itself
    workdir: str = ""  # keeps logs there when set; a temporary directory otherwise


@dataclass
class Child:
    start: int
    stop: int
    number: int
    log: Path
    fault: Path
    stderr: Path
    proc: subprocess.Popen
    last_size: int = 0
    last_progress: float = 0.0
    killed_for_hang: bool = False


def _sanitizer_env(workdir, number):
    """The environment .ci/sanitize runs the tests with, with per-child report files."""
    pkg = SANITIZE_BUILD / "pkg"
    if not (pkg / "engine").is_dir() or not list((pkg / "engine").glob("_C*.so")):
        raise SetupError(f"no sanitizer build in {pkg}: run `bash .ci/sanitize` first")
    gxx = shutil.which("g++")
    if gxx is None:
        raise SetupError("g++ is needed to locate libasan/libubsan")
    libs = [
        subprocess.run(
            [gxx, f"-print-file-name={lib}"], capture_output=True, text=True, check=True
        ).stdout.strip()
        for lib in ("libasan.so", "libubsan.so")
    ]
    return {
        "PYTHONPATH": str(pkg),
        "LD_PRELOAD": ":".join(libs),
        "ASAN_OPTIONS": f"detect_leaks=0:abort_on_error=1:{ASAN_MEMORY}:"
        f"log_path={workdir}/asan-{number}",
        "UBSAN_OPTIONS": f"print_stacktrace=1:halt_on_error=1:log_path={workdir}/ubsan-{number}",
    }


def _with_log_path(options, path):
    """``options`` (ASan/UBSan's colon-separated form) with ``log_path`` set to ``path``."""
    kept = [o for o in options.split(":") if o and not o.startswith("log_path=")]
    return ":".join([*kept, f"log_path={path}"])


def _inherited_sanitizer_env(env, workdir, number):
    """Report files of this child, when the parent itself runs under the sanitizers (pytest inside
    .ci/sanitize): the child keeps the sanitizers but writes its reports next to its log, so that
    the crashes these tests cause on purpose do not land among the suite's own reports."""
    asan = _with_log_path(env.get("ASAN_OPTIONS", ""), f"{workdir}/asan-{number}")
    return {
        "ASAN_OPTIONS": f"{asan}:{ASAN_MEMORY}",
        "UBSAN_OPTIONS": _with_log_path(env.get("UBSAN_OPTIONS", ""), f"{workdir}/ubsan-{number}"),
    }


def _sanitizer_reports(workdir, number):
    """This child's sanitizer report files that report a bug. Others are removed: with
    allocator_may_return_null ASan also logs a warning for each refused huge allocation, which is
    the intended outcome, not a finding."""
    found = []
    for path in sorted(Path(workdir).glob(f"asan-{number}.*")) + sorted(
        Path(workdir).glob(f"ubsan-{number}.*")
    ):
        text = path.read_text(errors="replace")
        if "ERROR:" in text or "SUMMARY:" in text or "runtime error" in text:
            found.append(path)
        else:
            path.unlink()
    return found


class Driver:
    def __init__(self, config):
        self.config = config
        self.result = report.Result(seed=config.seed)
        self.counter = 0
        self.deadline = time.time() + config.time_budget if config.time_budget else 0.0
        # Children run under ASan+UBSan with --sanitize, or when this process already does.
        self.sanitized = config.sanitize or "libasan" in os.environ.get("LD_PRELOAD", "")

    # ---- children ----

    def _spawn(self, start, stop, inject=None, deadline=None):
        cfg = self.config
        self.counter += 1
        n = self.counter
        log = Path(self.workdir) / f"child-{n}.log"
        fault = Path(self.workdir) / f"child-{n}.fault"
        stderr = Path(self.workdir) / f"child-{n}.stderr"
        env = dict(os.environ)
        pythonpath = [str(PACKAGE_PARENT)]
        if cfg.sanitize:
            san = _sanitizer_env(self.workdir, n)
            pythonpath.insert(0, san.pop("PYTHONPATH"))
            env.update(san)
        elif self.sanitized:
            env.update(_inherited_sanitizer_env(env, self.workdir, n))
        if env.get("PYTHONPATH"):
            pythonpath.append(env["PYTHONPATH"])
        env["PYTHONPATH"] = os.pathsep.join(pythonpath)
        env.pop("PYTHONSTARTUP", None)
        cmd = [
            sys.executable,
            "-m",
            f"{PACKAGE}.worker",
            f"--seed={cfg.seed}",
            f"--start={start}",
            f"--stop={stop}",
            f"--log={log}",
            f"--fault={fault}",
            f"--memory-gib={cfg.memory_gib}",
            f"--deadline={self.deadline if deadline is None else deadline}",
        ]
        chosen = {i: c for i, c in (inject or cfg.inject).items() if start <= int(i) < stop}
        if chosen:
            cmd.append("--inject=" + json.dumps({str(k): v for k, v in chosen.items()}))
        with open(stderr, "wb") as err:
            proc = subprocess.Popen(
                cmd, cwd=PACKAGE_PARENT, env=env, stdin=subprocess.DEVNULL, stdout=err, stderr=err
            )
        return Child(start, stop, n, log, fault, stderr, proc, last_progress=time.monotonic())

    def _watch(self, child):
        """Kills a child whose log has not grown for ``call_timeout`` seconds: it is hung."""
        size = child.log.stat().st_size if child.log.exists() else 0
        now = time.monotonic()
        if size != child.last_size:
            child.last_size, child.last_progress = size, now
            return
        # Until its first record the child is importing engine and discovering the targets, which
        # on a loaded machine takes longer than one call may: that gets its own, longer allowance.
        limit = self.config.call_timeout if size else max(self.config.call_timeout, SETUP_TIMEOUT)
        if now - child.last_progress > limit and not child.killed_for_hang:
            child.killed_for_hang = True
            # SIGABRT first: faulthandler then writes every thread's Python stack to the fault file.
            child.proc.send_signal(signal.SIGABRT)
            try:
                child.proc.wait(5)
            except subprocess.TimeoutExpired:
                child.proc.kill()

    @staticmethod
    def _read_log(path):
        records = []
        if not path.exists():
            return records
        for line in path.read_text(errors="replace").splitlines():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                pass  # a line cut short by the crash
        return records

    def _finish(self, child):
        """Accounts for a child that exited; returns the range still to run, or None."""
        cfg = self.config
        rc = child.proc.returncode
        records = self._read_log(child.log)
        started = {}
        pending = None
        last_done = None
        for r in records:
            if r["ev"] == "start":
                started[r["i"]] = r
                pending = r
            elif r["ev"] == "end":
                self.result.add_outcome(started.get(r["i"]), r)
                pending = None
                last_done = r["i"]
            elif r["ev"] == "setup_failed":
                raise SetupError(f"the child could not start: {r['error']}")
        reports = _sanitizer_reports(self.workdir, child.number) if self.sanitized else []
        if rc == SETUP_FAILED:
            raise SetupError(f"the child could not start; its stderr:\n{self._details(child, [])}")
        if rc == 0 and not reports:
            return None
        details = self._details(child, reports)
        if child.killed_for_hang:
            kind = "hang"
        else:
            kind = report.describe_status(rc) if rc else "sanitizer report"
        if pending is not None:
            crash = report.Crash(
                kind,
                pending["i"],
                pending["label"],
                pending["code"],
                details,
                seed=cfg.seed,
            )
            self.result.add_crash(crash, hang=child.killed_for_hang)
            nxt = pending["i"] + 1
        else:
            # Died outside any call: while starting up, or at interpreter exit after the batch.
            where = "exit" if last_done is not None else "startup"
            what = (
                "the process died before its first call"
                if last_done is None
                else f"calls {child.start}..{last_done} ran, then the process died"
            )
            stop = child.start if last_done is None else last_done + 1
            crash = report.Crash(
                kind,
                None,
                f"<{where}>",
                what,
                details,
                seed=cfg.seed,
                range=(child.start, stop),
            )
            self.result.add_crash(crash, hang=child.killed_for_hang)
            nxt = child.stop if last_done is not None else None
        for path in reports:
            path.unlink()
        if nxt is not None and nxt < child.stop:
            return (nxt, child.stop)
        return None

    @staticmethod
    def _details(child, reports):
        """The evidence: sanitizer reports first (their head names the bug), then faulthandler's
        Python stacks, then the end of stderr."""
        parts = []
        for path, keep in [
            *((r, "head") for r in reports),
            (child.fault, "head"),
            (child.stderr, "tail"),
        ]:
            if path.exists():
                text = path.read_text(errors="replace").strip()
                if text:
                    text = text[:6000] if keep == "head" else text[-3000:]
                    parts.append(f"--- {path.name}\n{text}")
        return "\n".join(parts)

    # ---- the run ----

    def run(self):
        cfg = self.config
        own_dir = not cfg.workdir
        self.workdir = tempfile.mkdtemp(prefix="engine-fuzz-") if own_dir else cfg.workdir
        Path(self.workdir).mkdir(parents=True, exist_ok=True)
        t0 = time.monotonic()
        running = []
        try:
            end = cfg.start + cfg.calls
            queue = [(s, min(s + cfg.batch, end)) for s in range(cfg.start, end, cfg.batch)]
            queue.reverse()  # popped from the end: lowest indices first
            while queue or running:
                while queue and len(running) < max(1, cfg.jobs) and not self._past_deadline():
                    running.append(self._spawn(*queue.pop()))
                if not running:
                    break
                time.sleep(0.05)
                for child in list(running):
                    if child.proc.poll() is None:
                        self._watch(child)
                        continue
                    running.remove(child)
                    rest = self._finish(child)
                    if rest is not None and not self._past_deadline():
                        queue.append(rest)
            self.result.elapsed = time.monotonic() - t0
            if cfg.verify:
                self._verify()
            self._bisect_exit_crashes()
        finally:
            for child in running:
                if child.proc.poll() is None:
                    child.proc.kill()
            if own_dir:
                shutil.rmtree(self.workdir, ignore_errors=True)
        return self.result

    def _past_deadline(self):
        return bool(self.deadline) and time.time() > self.deadline

    def _run_alone(self, start, stop):
        """Runs a range in a fresh child with no deadline; returns (died badly, the call that was
        running when it died or None, the log's start records)."""
        child = self._spawn(start, stop, deadline=0.0)
        while child.proc.poll() is None:
            time.sleep(0.05)
            self._watch(child)
        starts, pending = [], None
        for r in self._read_log(child.log):
            if r["ev"] == "start":
                starts.append(r)
                pending = r["i"]
            elif r["ev"] == "end":
                pending = None
        reports = _sanitizer_reports(self.workdir, child.number) if self.sanitized else []
        for path in reports:
            path.unlink()
        rc = child.proc.returncode
        bad = rc not in (0, SETUP_FAILED) or bool(reports) or child.killed_for_hang
        return bad, pending, starts

    def _verify(self):
        """Reruns the first call of each crash group alone: does it crash without its batch?"""
        for group in self.result.crash_groups()[:40]:
            crash = group[0]
            if crash.index is None:
                continue
            bad, pending, _ = self._run_alone(crash.index, crash.index + 1)
            crash.reproduces = bad and pending == crash.index

    def _bisect_exit_crashes(self, limit=3):
        """Narrows a crash at interpreter exit down to the call whose leftovers cause it."""
        for crash in [c for c in self.result.crashes if c.index is None and c.range][:limit]:
            lo, hi = crash.range
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if self._run_alone(lo, mid)[0]:
                    hi = mid
                elif self._run_alone(mid, hi)[0]:
                    lo = mid
                else:
                    break  # needs calls from both halves together
            crash.range = (lo, hi)
            if hi - lo == 1:
                bad, _, starts = self._run_alone(lo, hi)
                if bad and starts:
                    crash.culprit = starts[0]


def run(config):
    """Runs the fuzzer with ``config`` and returns a ``report.Result``."""
    return Driver(config).run()
