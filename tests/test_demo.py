"""``python -m engine``: --help, the training demo at a tiny size (in a subprocess, as a user runs
it), ``info``, ``check``, bad options, the plain progress bar, and the PyTorch comparison path
(driven here with engine standing in for PyTorch: the demo's model is written once for both)."""

import importlib.util
import io
import os
import pathlib
import subprocess
import sys
import types

import engine
import pytest
from engine import _demo
from engine.__main__ import main, make_parser

ROOT = pathlib.Path(__file__).resolve().parent.parent
TINY = ["--samples", "90", "--epochs", "2", "--batch-size", "16", "--hidden", "8"]


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=dict(os.environ),
        timeout=300,
    )


def test_help_lists_the_subcommands():
    out = run("--help")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("usage: python -m engine")
    for word in ("demo", "info", "check"):
        assert word in out.stdout
    demo_help = run("demo", "--help")
    assert demo_help.returncode == 0
    for option in ("--epochs", "--samples", "--plot", "--no-torch", "--no-progress"):
        assert option in demo_help.stdout


def test_tiny_demo_trains_and_writes_the_loss_curve(tmp_path):
    plot = tmp_path / "loss.png"
    out = run("demo", *TINY, "--no-torch", "--plot", str(plot), "--no-progress", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith(
        f"engine {engine.__version__}: 3 spiral arms, 72 training and 18 test"
    )
    assert "custom autograd.Function (Swish)" in lines[0]
    assert lines[1].startswith(
        "the custom Function Swish keeps 2.0 KiB per batch for backward in 2"
    )
    assert lines[2].startswith("engine : test loss ")
    assert "test accuracy" in lines[2] and "ms/epoch" in lines[2]
    if importlib.util.find_spec("matplotlib") is None:
        assert "loss curve: skipped (pip install matplotlib" in out.stdout
    else:
        assert f"loss curve: {plot}" in out.stdout
        assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bare_command_runs_the_demo_with_its_options(tmp_path):
    out = run(*TINY, "--no-torch", "--plot", "", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "engine : test loss" in out.stdout
    assert "loss curve" not in out.stdout
    assert list(tmp_path.iterdir()) == []
    assert "engine" in out.stderr  # the progress bar (tqdm's, or the plain one's lines)


def test_info_reports_the_build():
    out = run("info")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert text.startswith(f"engine {engine.__version__}")
    assert f"SIMD: {engine._C._simd_level()}" in text
    assert f"threads: {engine.get_num_threads()}" in text
    assert "BLAS: " in text
    assert "optional: numpy yes" in text


def test_check_passes():
    out = run("check")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "4 of 4 checks passed" in out.stdout
    assert "FAIL" not in out.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--epochs", "0"], "--epochs must be at least 1"),
        (["demo", "--samples", "3"], "--samples must be at least 6"),
        (["demo", "--lr", "-1"], "--lr must be positive"),
        (["demo", "--epochs", "many"], "invalid int value: 'many'"),
        (["train"], "invalid choice: 'train'"),
    ],
)
def test_bad_options_exit_with_a_usage_error(args, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_parser_defaults():
    args = make_parser().parse_args([])
    assert args.command is None
    assert (args.samples, args.epochs, args.batch_size, args.torch, args.progress) == (
        3000,
        30,
        64,
        True,
        True,
    )
    assert args.plot == "engine-demo-loss.png"


def test_plain_progress_without_a_terminal_prints_quarters():
    stream = io.StringIO()
    bar = _demo.PlainProgress(8, "engine", stream=stream)
    for _ in range(8):
        bar.update(1)
        bar.set_postfix(loss="0.5")
    bar.close()
    assert stream.getvalue().splitlines() == [
        "engine: 0% ",
        "engine: 25% loss=0.5",
        "engine: 50% loss=0.5",
        "engine: 75% loss=0.5",
        "engine: 100% loss=0.5",
    ]


def test_plain_progress_on_a_terminal_redraws_in_place():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    stream = Tty()
    bar = _demo.PlainProgress(2, "engine", stream=stream)
    bar.update(1)
    bar.update(1)
    bar.close()
    assert stream.getvalue().count("\r") == 2
    assert "[" + "#" * 30 + "] 2/2" in stream.getvalue()


def test_progress_bar_falls_back_without_tqdm(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    assert isinstance(_demo.progress_bar(5, "x", True), _demo.PlainProgress)
    assert _demo.progress_bar(5, "x", False) is None


def test_spirals_are_balanced_split_and_reproducible():
    x_train, y_train, x_test, y_test = _demo.make_spirals(300, 0.1, seed=3)
    assert tuple(x_train.shape) == (240, 2) and tuple(x_test.shape) == (60, 2)
    assert y_train.dtype == engine.int64
    counts = engine.bincount(engine.cat([y_train, y_test]))
    assert counts.tolist() == [100, 100, 100]
    again = _demo.make_spirals(300, 0.1, seed=3)
    assert engine.equal(again[0], x_train) and engine.equal(again[3], y_test)
    assert float(x_train.abs().max()) < 1.5


def test_torch_comparison_path_with_engine_standing_in(monkeypatch, capsys):
    """The demo builds the same model from whatever module is `torch`: engine passes for it."""
    stand_in = types.ModuleType("torch")
    for name in dir(engine):
        if not name.startswith("__"):
            setattr(stand_in, name, getattr(engine, name))
    stand_in.__version__ = "stand-in"
    threads = []
    stand_in.set_num_threads = threads.append
    stand_in.get_num_threads = lambda: threads[-1]
    monkeypatch.setitem(sys.modules, "torch", stand_in)
    args = make_parser().parse_args([*TINY, "--no-progress"])
    data = _demo.make_spirals(args.samples, args.noise, args.seed)
    model = _demo.build_model(engine, args.hidden)
    initial = {k: v.detach().clone() for k, v in model.state_dict().items()}
    losses = _demo.run_torch(args, data, initial, engine_seconds=0.5)
    assert threads == [1]
    assert len(losses) == 2
    line = capsys.readouterr().out
    assert line.startswith("PyTorch: test loss ")
    assert "1 thread, torch stand-in): engine is" in line


def test_torch_absent_is_said_plainly(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "torch", None)
    args = make_parser().parse_args(TINY)
    assert _demo.run_torch(args, None, None, 1.0) is None
    assert "PyTorch: not installed" in capsys.readouterr().out


def test_the_model_is_the_same_function_of_its_weights_in_both_builds():
    # Two builds from one state dict give one function: what the PyTorch comparison relies on.
    a = _demo.build_model(engine, 8)
    b = _demo.build_model(engine, 8)
    b.load_state_dict({k: engine.tensor(v.tolist()) for k, v in a.state_dict().items()})
    x = engine.randn(5, 2)
    engine.testing.assert_close(a(x), b(x))


def test_loss_curve_is_skipped_without_matplotlib(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert _demo.plot_losses({"engine": [1.0, 0.5]}, tmp_path / "x.png") is None
    assert "loss curve: skipped (pip install matplotlib" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []
