"""The child process: runs calls ``start`` to ``stop`` and logs each one before running it.

``python3 -m tests.fuzz.worker --seed S --start I --stop J --log FILE [...]``

Before a call the child appends ``{"ev": "start", "i": ..., "label": ..., "code": ...}`` to the
log with an unbuffered write, so if the call kills the process the parent still knows exactly which
call did it. After the call (and after its objects were freed, since destructors can crash too) it
appends ``{"ev": "end", "i": ..., "outcome": ...}``. Exit status 0 means the range (or the time
budget) was finished, ``SETUP_FAILED`` that engine could not be imported or is unusable
(its global state cannot even be reset).
"""

import argparse
import faulthandler
import gc
import json
import os
import random
import resource
import sys
import time
import warnings

from . import classify

SETUP_FAILED = 3
# How long to keep retrying ``import engine``: a reinstall in progress removes it for a while.
IMPORT_RETRY_SECONDS = 180
CODE_LIMIT = 4000
MESSAGE_LIMIT = 600


def under_sanitizer():
    """True when ASan is preloaded; it reserves terabytes of shadow memory, so no RLIMIT_AS."""
    return "libasan" in os.environ.get("LD_PRELOAD", "")


def limit_resources(memory_gib):
    # No core files: thousands of crashes would fill the disk.
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if memory_gib and not under_sanitizer():
        # A huge allocation must fail with MemoryError/RuntimeError instead of swapping the
        # machine or waking the OOM killer.
        limit = int(memory_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def import_engine(log):
    """Imports engine, retrying while a reinstall is in progress."""
    deadline = time.monotonic() + IMPORT_RETRY_SECONDS
    while True:
        try:
            import engine

            return engine
        except Exception as e:
            error = f"{type(e).__name__}: {e}"
            if time.monotonic() > deadline:
                log({"ev": "setup_failed", "error": error})
                sys.exit(SETUP_FAILED)
            # Logged so that the parent sees progress and does not take the wait for a hang.
            log({"ev": "waiting", "error": error})
            for name in [m for m in sys.modules if m == "engine" or m.startswith("engine.")]:
                del sys.modules[name]
            time.sleep(5)


class State:
    """Process-wide settings a call may change; restored before every call so that a call's
    behaviour depends on (seed, index) alone and not on the calls before it."""

    def __init__(self, engine):
        from engine import _tensor_str
        from engine.autograd import grad_mode

        self.engine = engine
        self.grad_mode = grad_mode
        self.print_opts = _tensor_str.PRINT_OPTS
        self.print_saved = {k: getattr(self.print_opts, k) for k in type(self.print_opts).__slots__}
        self.threads = engine.get_num_threads()
        self.recursion = sys.getrecursionlimit()

    def reset(self, index):
        engine = self.engine
        engine._C._set_grad_enabled(True)
        engine._C._set_anomaly_enabled(False, False)
        engine.set_default_dtype(engine.float32)
        if engine.get_num_threads() != self.threads:
            engine.set_num_threads(self.threads)
        engine._C._set_inference_mode(False)
        for k, v in self.print_saved.items():
            setattr(self.print_opts, k, v)
        sys.setrecursionlimit(self.recursion)
        warnings.resetwarnings()
        warnings.simplefilter("error")
        engine.manual_seed(index)


def call_rng(seed, index):
    """The generator for one call: seeded by (seed, index) only, so any call reproduces alone."""
    return random.Random(f"{seed}:{index}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--start", type=int, required=True)
    p.add_argument("--stop", type=int, required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--fault", help="file for faulthandler's tracebacks")
    p.add_argument("--deadline", type=float, default=0.0, help="time.time() to stop at")
    p.add_argument("--memory-gib", type=float, default=4.0)
    p.add_argument("--inject", default="{}", help="JSON {index: source} replacing those calls")
    args = p.parse_args(argv)

    limit_resources(args.memory_gib)
    fd = os.open(args.log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def log(record):
        # One unbuffered write per record: it reaches the file even if the next instruction
        # crashes the process.
        os.write(fd, (json.dumps(record) + "\n").encode())

    # Stays open for the life of the process: faulthandler writes to it when the process dies.
    fault = open(args.fault or os.devnull, "w")
    faulthandler.enable(file=fault, all_threads=True)
    inject = {int(k): v for k, v in json.loads(args.inject).items()}

    engine = import_engine(log)
    from . import objects, targets

    catalog = targets.discover(engine)
    base_ns = objects.namespace()
    state = State(engine)
    try:
        state.reset(0)
    except Exception as e:
        # Every call would fail the same way; that is one finding, not thousands.
        log({"ev": "setup_failed", "error": f"resetting engine's state failed: {e!r}"})
        return SETUP_FAILED
    own = (objects.FuzzError,)
    unraisable = []
    sys.unraisablehook = lambda u: unraisable.append(
        f"{classify.type_name(u.exc_type)}: {u.exc_value}"
    )
    # Everything alive now lives for the whole process: freezing it keeps the per-call collection
    # down to the objects the call itself made.
    gc.collect()
    gc.freeze()
    log({"ev": "ready", "targets": len(catalog.calls) + len(catalog.methods)})

    for i in range(args.start, args.stop):
        if args.deadline and time.time() > args.deadline:
            log({"ev": "deadline", "i": i})
            break
        if i in inject:
            label, code = "injected", inject[i]
        else:
            label, code = targets.generate(call_rng(args.seed, i), catalog)
        log({"ev": "start", "i": i, "label": label, "code": code[:CODE_LIMIT]})
        record = run_one(i, code, base_ns, state, own, args.seed)
        if unraisable:
            record["unraisable"] = unraisable[0][:MESSAGE_LIMIT]
            unraisable.clear()
        log(record)
    os.close(fd)
    return 0


def run_one(i, code, base_ns, state, own, seed):
    """Runs one call's source and describes how it ended."""
    record = {"ev": "end", "i": i, "outcome": "ok"}
    ns = dict(base_ns)
    try:
        state.reset(i)
        exec(compile(code, f"<fuzz {seed}:{i}>", "exec"), ns)
    except BaseException as e:  # every outcome is data here, even SystemExit
        record["outcome"] = classify.type_name(type(e))
        record["msg"] = str(e)[:MESSAGE_LIMIT] if not isinstance(e, KeyError) else repr(e)
        reason = classify.unclear_reason(e, own)
        if reason:
            record["unclear"] = reason
        del e
    # Free the call's objects now, inside the call's log window: a destructor that crashes is
    # then blamed on the call that made the object.
    ns.clear()
    gc.collect()
    return record


if __name__ == "__main__":
    sys.exit(main())
