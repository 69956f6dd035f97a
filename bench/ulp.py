"""Max ulp error of every float32 transcendental function, under each instruction-set copy.

    python bench/ulp.py [--n 1000000] [--levels scalar,avx2,avx512] [--only exp,sigmoid] [--json out.json]

Each function runs on n float32 inputs drawn from its domain plus the edge values (zeros,
infinities, NaN, subnormals, overflow and underflow thresholds, large sin/cos arguments), and
is compared with its float64 NumPy/SciPy reference rounded to float32 (tests/ulp_table.py holds
the functions, domains and references; tests/test_ulp.py runs the same table on a few thousand
inputs). Each copy of the vectorised loops is forced with ENGINE_SIMD in its own subprocess (the
choice is made once per process). Also reports how many results differ between copies, and the
functions whose NaN/infinity/overflow results differ from the reference. Needs NumPy; SciPy for
the special functions (rows without it are skipped)."""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(os.path.dirname(HERE), "tests")


def child(n, only):
    """Runs in the forced-level subprocess: prints one JSON object, name -> measurement."""
    sys.path.insert(0, TESTS)
    import engine
    import numpy as np
    import ulp_table as U

    out = {"level": engine._C._simd_level(), "rows": {}}
    for name in U.UNARY:
        if only and name not in only:
            continue
        fn, ref, _ = U.UNARY[name]
        if ref is None:
            continue
        err, worst, bad = U.measure_unary(name, n)
        x = U.inputs(name, np.random.default_rng(0), n)
        bits = fn(engine.from_numpy(x)).numpy().view(np.uint32)
        out["rows"][name] = {
            "ulp": err,
            "at": worst,
            "special_mismatches": int(len(bad)),
        }
        np.save(os.path.join(os.environ["ULP_BITS_DIR"], f"{out['level']}_{name}.npy"), bits)
    for name in U.BINARY:
        if only and name not in only:
            continue
        err, worst, bad = U.measure_binary(name, n)
        out["rows"][name] = {"ulp": err, "at": list(worst), "special_mismatches": int(len(bad))}
    print(json.dumps(out))


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--levels", default="scalar,avx2,avx512")
    parser.add_argument("--only", default="")
    parser.add_argument("--json")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    only = [s for s in args.only.split(",") if s]
    if args.child:
        return child(args.n, only)

    import tempfile

    import numpy as np

    results = {}
    with tempfile.TemporaryDirectory() as bits_dir:
        for level in args.levels.split(","):
            env = {**os.environ, "ENGINE_SIMD": level, "ULP_BITS_DIR": bits_dir}
            cmd = [
                sys.executable,
                __file__,
                "--child",
                "--n",
                str(args.n),
                "--only",
                ",".join(only),
            ]
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
            if proc.returncode != 0:
                sys.exit(proc.stderr)
            res = json.loads(proc.stdout.strip().splitlines()[-1])
            results[f"{level} ({res['level']})"] = res
        levels = list(results)
        names = list(results[levels[0]]["rows"])
        head = (
            f"{'function':10s}"
            + "".join(f"{lv:>20s}" for lv in levels)
            + "   differ between copies"
        )
        print(f"max ulp error, {args.n:,} float32 inputs + edge values, vs float64 rounded")
        print(head)
        for name in names:
            cells = []
            for lv in levels:
                row = results[lv]["rows"][name]
                mark = " !" if row["special_mismatches"] else "  "
                cells.append(f"{row['ulp']:18.3f}{mark}")
            actual = [results[lv]["level"] for lv in levels]
            paths = [os.path.join(bits_dir, f"{a}_{name}.npy") for a in dict.fromkeys(actual)]
            diff = ""
            if len(paths) > 1 and all(os.path.exists(p) for p in paths):
                base = np.load(paths[0])
                frac = max(float(np.mean(np.load(p) != base)) for p in paths[1:])
                diff = f"{100 * frac:.3f}%"
            print(f"{name:10s}" + "".join(cells) + "   " + diff)
        print("(!: NaN/infinity/overflow results that differ from the reference)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
