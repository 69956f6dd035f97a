"""examples/train_custom_function.py (a custom Function in a Module, Adam, DataLoader, save and
load) under the library given as argument: its whole output must equal PyTorch's."""

import pathlib
import runpy
import sys

EXAMPLE = pathlib.Path(__file__).resolve().parents[3] / "examples" / "train_custom_function.py"
sys.argv = [str(EXAMPLE), sys.argv[1]]
runpy.run_path(str(EXAMPLE), run_name="__main__")
