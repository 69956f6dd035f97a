"""Scripts written against the torch API print exactly what PyTorch 2.13 prints
(tests/fixtures/nn_scripts/, recorded by tests/fixtures/record_nn_scripts.py)."""

import os
import pathlib
import subprocess
import sys

import pytest

SCRIPTS = pathlib.Path(__file__).parent / "scripts"
EXPECTED = pathlib.Path(__file__).parents[1] / "fixtures" / "nn_scripts"


@pytest.mark.parametrize("script", sorted(p.name for p in SCRIPTS.glob("*.py")))
def test_script_prints_what_pytorch_prints(script):
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    result = subprocess.run(
        [sys.executable, script, "engine"],
        capture_output=True,
        text=True,
        cwd=SCRIPTS,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    expected = (EXPECTED / (pathlib.Path(script).stem + ".out")).read_text()
    assert result.stdout == expected
