"""Runs a worker's ``check_*`` functions on every rank and writes ``rank<r>.json`` (check name ->
"ok" or the traceback). A failed check does not stop the others; every rank runs every check in
the same order, so the collectives inside them stay matched across processes."""

import json
import pathlib
import sys
import traceback


def run_checks(namespace, init=None):
    import engine.distributed as dist

    out_dir = pathlib.Path(sys.argv[1])
    if init is None:
        dist.init_process_group("mpi")
    else:
        init()
    rank = dist.get_rank()
    results = {}
    for name, function in list(namespace.items()):
        if not name.startswith("check_") or not callable(function):
            continue
        try:
            function()
            results[name] = "ok"
        except Exception:
            results[name] = traceback.format_exc()
        if dist.is_initialized():
            dist.barrier()
    (out_dir / f"rank{rank}.json").write_text(json.dumps(results, indent=1))
    if dist.is_initialized():
        dist.destroy_process_group()
