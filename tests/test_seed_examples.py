"""The tutorial's three scripts run unchanged (``import engine as torch``) and print its results."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
PACKAGE_ROOT = Path(__import__("engine").__file__).resolve().parent.parent

EXPECTED = {
    "example_1.py": "tensor([2., 2., 2.])\n",
    "example_2.py": "tensor([12., 27., 48.])\n",
    # x.grad == y + 1 and y.grad == x, with PyTorch's randn stream for seed 0.
    "example_3.py": "tensor([ 1.5684, -0.0845, -0.3986])\ntensor([ 1.5410, -0.2934, -2.1788])\n",
}


@pytest.mark.parametrize("script", sorted(EXPECTED))
def test_seed_example_prints_the_tutorials_result(script):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE_ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, str(HERE / "seed_examples" / script)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout == EXPECTED[script]
