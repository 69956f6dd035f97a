"""How much of PyTorch 2.13's public CPU surface engine has, by name (tests/fixtures/api_names.json,
recorded by tests/fixtures/record_api_names.py).

    python -m tests.api_coverage            # the three shares
    python -m tests.api_coverage --missing  # and the names still missing"""

import json
import pathlib
import sys

NAMES = pathlib.Path(__file__).parent / "fixtures" / "api_names.json"
# The goals: the share of each namespace engine must reach.
GOALS = {"tensor": 0.90, "torch": 0.85, "nn_functional": 0.85}


def namespaces():
    import engine
    import engine.nn.functional

    return {"tensor": engine.Tensor, "torch": engine, "nn_functional": engine.nn.functional}


def coverage():
    """{namespace: (share, missing names)} for the three namespaces the fixture lists."""
    recorded = json.loads(NAMES.read_text())
    result = {}
    for key, namespace in namespaces().items():
        names = recorded[key]
        missing = [name for name in names if not hasattr(namespace, name)]
        result[key] = (1 - len(missing) / len(names), missing)
    return result


def main(argv):
    for key, (share, missing) in coverage().items():
        print(f"{key:14s} {share:6.1%}  (goal {GOALS[key]:.0%}, {len(missing)} missing)")
        if "--missing" in argv:
            print("   ", " ".join(missing))


if __name__ == "__main__":
    main(sys.argv[1:])
