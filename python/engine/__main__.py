"""``python -m engine [demo|info|check]``: the training demo (the default), a report of how engine
was built and what it found on this machine, and a quick self-test. ``--help`` lists the options.
"""

import argparse
import os
import sys

import engine

DEFAULT_PLOT = "engine-demo-loss.png"


def blas_library():
    """The path of the BLAS the process has loaded (read from /proc/self/maps), or None."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            paths = {line.split()[-1] for line in f if "blas" in line.lower()}
    except OSError:  # not Linux
        return None
    return sorted(paths)[0] if paths else None


def run_info(args):
    """The ``info`` subcommand: version, SIMD level, threads, BLAS, optional packages."""
    import importlib.util
    import platform
    import shutil

    print(f"engine {engine.__version__} ({os.path.dirname(engine.__file__)})")
    print(f"python {platform.python_version()} on {platform.system()} {platform.machine()}")
    forced = os.environ.get("ENGINE_SIMD")
    print(f"SIMD: {engine._C._simd_level()}" + (f" (ENGINE_SIMD={forced})" if forced else ""))
    print(f"threads: {engine.get_num_threads()} (engine.set_num_threads)")
    blas = blas_library()
    if blas is None:
        print("BLAS: none loaded (matmul uses engine's own kernel)")
    else:
        config = ""
        if "scipy_openblas" in blas:
            try:
                import scipy_openblas32

                config = f" - {scipy_openblas32.get_openblas_config()}"
            except ImportError:
                pass
        print(f"BLAS: {os.path.basename(blas)}{config}")
    found = [
        f"{name} {'yes' if importlib.util.find_spec(name) is not None else 'no'}"
        for name in ("numpy", "graphviz", "tqdm", "matplotlib", "torch")
    ]
    found.append(f"dot {'yes' if shutil.which('dot') else 'no'}")
    print("optional: " + ", ".join(found))
    return 0


def add_demo_options(parser, shown=True):
    """The demo's options: on the ``demo`` subcommand, and (unlisted) on the bare command so
    that ``python -m engine --epochs 5`` works."""

    def h(text):
        return text if shown else argparse.SUPPRESS

    parser.add_argument("--samples", type=int, default=3000, help=h("points in the data set"))
    parser.add_argument("--epochs", type=int, default=30, help=h("training epochs"))
    parser.add_argument("--batch-size", type=int, default=64, help=h("batch size"))
    parser.add_argument("--hidden", type=int, default=64, help=h("hidden layer width"))
    parser.add_argument("--lr", type=float, default=1e-2, help=h("Adam's learning rate"))
    parser.add_argument("--noise", type=float, default=0.1, help=h("angular noise of the arms"))
    parser.add_argument("--seed", type=int, default=0, help=h("random seed"))
    parser.add_argument(
        "--plot",
        default=DEFAULT_PLOT,
        help=h(f"where to write the loss curve PNG (default {DEFAULT_PLOT}); '' for none"),
    )
    parser.add_argument(
        "--no-torch", dest="torch", action="store_false", help=h("skip the PyTorch comparison")
    )
    parser.add_argument(
        "--torch-budget",
        type=float,
        default=10.0,
        help=h("seconds PyTorch may train; past them its time per epoch is reported as it stands"),
    )
    parser.add_argument(
        "--torch-threads",
        type=int,
        default=1,
        help=h(
            "PyTorch's threads (default 1: this model's operations are too small for threads "
            "to help, and idle threads spinning on a busy machine slow PyTorch down)"
        ),
    )
    parser.add_argument(
        "--no-progress", dest="progress", action="store_false", help=h("no progress bar")
    )


def make_parser():
    """The command line: ``python -m engine [demo|info|check] [options]``."""
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="engine: a compiled autograd engine with PyTorch's API. Without a "
        "subcommand, runs the training demo (see 'python -m engine demo --help').",
    )
    sub = parser.add_subparsers(dest="command", metavar="{demo,info,check}")
    add_demo_options(
        sub.add_parser(
            "demo",
            help="train a small network with a custom Function activation (the default)",
            description="Trains a small network whose activation is a custom autograd.Function "
            "on a synthetic data set, against PyTorch when it is installed.",
        )
    )
    sub.add_parser("info", help="version, SIMD level, threads, BLAS, optional packages")
    sub.add_parser("check", help="a quick self-test (exit status 1 if anything fails)")
    add_demo_options(parser, shown=False)
    return parser


def main(argv=None):
    """Runs the command line ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    parser = make_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    command = args.command or "demo"
    if command == "info":
        return run_info(args)
    if command == "check":
        from engine import _selfcheck

        return _selfcheck.main()
    for name in ("samples", "epochs", "batch_size", "hidden", "torch_threads"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.lr <= 0:
        parser.error("--lr must be positive")
    from engine import _demo

    if args.samples < 2 * _demo.CLASSES:
        parser.error(f"--samples must be at least {2 * _demo.CLASSES}")
    return _demo.run_demo(args)


if __name__ == "__main__":
    sys.exit(main())
