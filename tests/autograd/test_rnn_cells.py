"""engine.rnn_tanh_cell / rnn_relu_cell / gru_cell / lstm_cell: PyTorch's functional cells, their
values (recorded from PyTorch 2.13), gradients (gradcheck, to second order) and argument checks."""

import json
import pathlib

import engine as torch
import pytest
from engine.autograd import gradcheck, gradgradcheck

CASES = json.loads(
    (pathlib.Path(__file__).parent.parent / "fixtures" / "rnn_cells.json").read_text()
)


def _args(name, bias=True):
    a = {k: torch.tensor(v, dtype=torch.float64) for k, v in CASES[name]["args"].items()}
    hx = (a["h"], a["c"]) if name == "lstm_cell" else a["h"]
    rest = (a["b_ih"], a["b_hh"]) if bias else ()
    return (a["input"], hx, a["w_ih"], a["w_hh"], *rest)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("bias", [True, False])
def test_values_match_pytorch(name, bias):
    res = getattr(torch, name)(*_args(name, bias))
    res = res if isinstance(res, tuple) else (res,)
    expected = CASES[name]["out" if bias else "out_no_bias"]
    assert len(res) == len(expected)
    for got, want in zip(res, expected):
        assert got.dtype == torch.float64
        assert torch.allclose(got, torch.tensor(want, dtype=torch.float64), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients(name):
    x, hx, w_ih, w_hh, b_ih, b_hh = _args(name)
    if name == "lstm_cell":
        h, c = hx

        def f(x, h, c, w_ih, w_hh, b_ih, b_hh):
            return torch.lstm_cell(x, (h, c), w_ih, w_hh, b_ih, b_hh)

        inputs = (x, h, c, w_ih, w_hh, b_ih, b_hh)
    else:
        f = getattr(torch, name)
        inputs = (x, hx, w_ih, w_hh, b_ih, b_hh)
    inputs = tuple(t.detach().requires_grad_() for t in inputs)
    assert gradcheck(f, inputs)
    assert gradgradcheck(f, inputs)


def test_matches_the_modules():
    torch.manual_seed(0)
    x, h = torch.randn(3, 4), torch.randn(3, 5)
    cell = torch.nn.GRUCell(4, 5)
    expected = cell(x, h)
    got = torch.gru_cell(x, h, cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh)
    assert torch.allclose(got, expected, atol=1e-6)
    lstm = torch.nn.LSTMCell(4, 5)
    hy, cy = torch.lstm_cell(x, [h, h], lstm.weight_ih, lstm.weight_hh, lstm.bias_ih, lstm.bias_hh)
    eh, ec = lstm(x, (h, h))
    assert torch.allclose(hy, eh, atol=1e-6) and torch.allclose(cy, ec, atol=1e-6)


def _w(gates, n):
    return torch.ones(gates * 5, n)


X, H = torch.ones(3, 4), torch.ones(3, 5)
ERRORS = [
    (lambda: torch.rnn_tanh_cell(torch.ones(3, 6), H, _w(1, 4), _w(1, 5)), RuntimeError,
     "input has inconsistent input_size: got 6 expected 4"),
    (lambda: torch.rnn_tanh_cell(X, H[:2], _w(1, 4), _w(1, 5)), RuntimeError,
     "Input batch size 3 doesn't match hidden0 batch size 2"),
    (lambda: torch.rnn_tanh_cell(X, torch.ones(3, 6), _w(1, 4), _w(1, 5)), RuntimeError,
     "hidden0 has inconsistent hidden_size: got 6, expected 5"),
    (lambda: torch.rnn_relu_cell(X, H, _w(1, 4), torch.ones(6, 5)), RuntimeError,
     "weight_hh first dim must be 1 * hidden_size = 5, but got 6"),
    (lambda: torch.gru_cell(X, H, torch.ones(14, 4), _w(3, 5)), RuntimeError,
     "weight_ih first dim must be 3 * hidden_size = 15, but got 14"),
    (lambda: torch.lstm_cell(X, (H, H, H), _w(4, 4), _w(4, 5)), RuntimeError,
     "lstm_cell expects two hidden states"),
    (lambda: torch.lstm_cell(X, (H, H[:2]), _w(4, 4), _w(4, 5)), RuntimeError,
     "Input batch size 3 doesn't match hidden1 batch size 2"),
    (lambda: torch.lstm_cell(X, H, _w(4, 4), _w(4, 5)), TypeError,
     "lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not Tensor"),
    (lambda: torch.gru_cell(X, None, _w(3, 4), _w(3, 5)), TypeError,
     "gru_cell(): argument 'hx' (position 2) must be Tensor, not NoneType"),
    (lambda: torch.rnn_tanh_cell(X, H, _w(1, 4), _w(1, 5), torch.ones(6)), RuntimeError,
     "The expanded size of the tensor (5) must match the existing size (6) at non-singleton "
     "dimension 1.  Target sizes: [3, 5].  Tensor sizes: [6]"),
]  # fmt: skip


@pytest.mark.parametrize("call, error, message", ERRORS)
def test_pytorch_messages(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message
