"""``python3 -m tests.fuzz``: the command line of the random API fuzzer.

Exit status: 0 when no call crashed or hung, 1 otherwise, 2 when the run could not start;
``--strict`` also fails on unclear error messages.
"""

import argparse
import os
import sys

from . import driver


def parse(argv=None):
    p = argparse.ArgumentParser(
        prog="python3 -m tests.fuzz",
        description="Calls engine's public API with hostile arguments in child processes and "
        "reports crashes, hangs and unclear error messages. Call i of seed S is the same on "
        "every run of a build: --seed S --start i --calls 1 reruns it alone.",
    )
    p.add_argument("--calls", type=int, default=2000, help="how many calls (default 2000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--start", type=int, default=0, help="index of the first call")
    p.add_argument(
        "--jobs", type=int, default=min(2, os.cpu_count() or 1), help="child processes at once"
    )
    p.add_argument("--batch", type=int, default=500, help="calls per child process")
    p.add_argument(
        "--time-budget", type=float, default=0.0, help="stop starting calls after this many seconds"
    )
    p.add_argument(
        "--call-timeout", type=float, default=30.0, help="seconds without progress that make a hang"
    )
    p.add_argument(
        "--memory-gib", type=float, default=4.0, help="address-space limit of each child (0: none)"
    )
    p.add_argument(
        "--sanitize",
        action="store_true",
        help="run against the ASan+UBSan build in build/sanitize (made by `bash .ci/sanitize`)",
    )
    p.add_argument("--strict", action="store_true", help="fail on unclear messages too")
    p.add_argument("--no-verify", action="store_true", help="don't rerun crashes alone")
    p.add_argument("--report", help="also write the report as JSON to this file")
    p.add_argument("--workdir", help="keep the children's logs in this directory")
    p.add_argument("--top", type=int, default=30, help="unclear-message groups to list")
    return p.parse_args(argv)


def main(argv=None):
    args = parse(argv)
    config = driver.Config(
        seed=args.seed,
        start=args.start,
        calls=args.calls,
        jobs=args.jobs,
        batch=args.batch,
        time_budget=args.time_budget,
        call_timeout=args.call_timeout,
        memory_gib=args.memory_gib,
        sanitize=args.sanitize,
        verify=not args.no_verify,
        workdir=args.workdir or "",
    )
    try:
        result = driver.run(config)
    except driver.SetupError as e:
        print(f"fuzz: {e}", file=sys.stderr)
        return 2
    print(result.to_text(top=args.top))
    if args.report:
        with open(args.report, "w") as f:
            f.write(result.to_json())
    if result.failed or (args.strict and result.unclear):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
