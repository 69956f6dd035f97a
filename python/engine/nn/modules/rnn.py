"""Recurrent layers: RNN, LSTM (with projections), GRU and their single-step cells.

The input projection of a whole sequence is one matrix product per layer and direction; only the
recurrent part steps through time, each step a few tensor ops. Parameter names, shapes, default
initialisation, argument checks and return values follow PyTorch.
"""

import math
import numbers
import warnings

import engine
from engine.amp import _policy
from engine.nn import functional as F
from engine.nn import init
from engine.nn.modules.module import Module
from engine.nn.parameter import Parameter
from engine.nn.utils.rnn import PackedSequence, _pack_like, _padded_sorted

__all__ = ["GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "RNNBase", "RNNCell", "RNNCellBase"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _lstm_step(gi, h, c, w_hh, b_hh, w_hr):
    gates = gi + F.linear(h, w_hh, b_hh)
    i, f, g, o = gates.chunk(4, -1)
    c = engine.sigmoid(f) * c + engine.sigmoid(i) * engine.tanh(g)
    h = engine.sigmoid(o) * engine.tanh(c)
    if w_hr is not None:
        h = F.linear(h, w_hr)
    return h, c


def _gru_step(gi, h, w_hh, b_hh):
    gh = F.linear(h, w_hh, b_hh)
    i_r, i_z, i_n = gi.chunk(3, -1)
    h_r, h_z, h_n = gh.chunk(3, -1)
    r = engine.sigmoid(i_r + h_r)
    z = engine.sigmoid(i_z + h_z)
    n = engine.tanh(i_n + r * h_n)
    return (1 - z) * n + z * h


def _rnn_step(gi, h, w_hh, b_hh, relu):
    pre = gi + F.linear(h, w_hh, b_hh)
    return engine.relu(pre) if relu else engine.tanh(pre)


def _hx_rank_message(batched, h0, c0):
    rank = "3-D" if batched else "2-D"
    which = "batched" if batched else "unbatched"
    if c0 is None:
        return f"For {which} {rank} input, hx should also be {rank} but got {h0.dim()}-D tensor"
    return f"For {which} {rank} input, hx and cx should also be {rank} but got ({h0.dim()}-D, {c0.dim()}-D) tensors"


class RNNBase(Module):
    """The shared machinery of RNN, LSTM and GRU: parameters per layer and direction, checks,
    and the time loop."""

    def __init__(
        self,
        mode,
        input_size,
        hidden_size,
        num_layers=1,
        bias=True,
        batch_first=False,
        dropout=0.0,
        bidirectional=False,
        proj_size=0,
        device=None,
        dtype=None,
    ):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if (
            not isinstance(dropout, numbers.Number)
            or not 0 <= dropout <= 1
            or isinstance(dropout, bool)
        ):
            raise ValueError(
                "dropout should be a number in range [0, 1] representing the probability of an element being zeroed"
            )
        if dropout > 0 and num_layers == 1:
            warnings.warn(
                "dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
                f"num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                stacklevel=2,
            )
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError(
                "proj_size should be a positive integer or zero to disable projections"
            )
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        dtype = dtype if dtype is not None else engine.get_default_dtype()
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                real_hidden_size = proj_size if proj_size > 0 else hidden_size
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                w_ih = Parameter(
                    engine.empty((gate_size, layer_input_size), dtype=dtype, device=device)
                )
                w_hh = Parameter(
                    engine.empty((gate_size, real_hidden_size), dtype=dtype, device=device)
                )
                b_ih = Parameter(engine.empty(gate_size, dtype=dtype, device=device))
                b_hh = Parameter(engine.empty(gate_size, dtype=dtype, device=device))
                if self.proj_size == 0:
                    layer_params = (w_ih, w_hh, b_ih, b_hh) if bias else (w_ih, w_hh)
                else:
                    w_hr = Parameter(
                        engine.empty((proj_size, hidden_size), dtype=dtype, device=device)
                    )
                    layer_params = (w_ih, w_hh, b_ih, b_hh, w_hr) if bias else (w_ih, w_hh, w_hr)
                suffix = "_reverse" if direction == 1 else ""
                param_names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    param_names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if self.proj_size > 0:
                    param_names += ["weight_hr_l{}{}"]
                param_names = [x.format(layer, suffix) for x in param_names]
                for name, param in zip(param_names, layer_params):
                    setattr(self, name, param)
                self._flat_weights_names.extend(param_names)
                self._all_weights.append(param_names)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        return [getattr(self, name, None) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        """The parameters, one list per layer and direction."""
        return [[getattr(self, weight) for weight in weights] for weights in self._all_weights]

    def flatten_parameters(self):
        """Kept for PyTorch compatibility (a cuDNN layout step); nothing to do on the CPU."""

    def reset_parameters(self):
        """Every weight and bias from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def __setstate__(self, state):
        super().__setstate__(state)
        self.__dict__.setdefault("proj_size", 0)

    # ---- forward ----

    def _layer_weights(self, layer, direction):
        suffix = "_reverse" if direction == 1 else ""
        get = lambda name: getattr(self, f"{name}_l{layer}{suffix}", None)  # noqa: E731
        return get("weight_ih"), get("weight_hh"), get("bias_ih"), get("bias_hh"), get("weight_hr")

    def _check_input(self, input, expected_dim):
        if input.dim() != expected_dim:
            raise RuntimeError(f"input must have {expected_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(
                f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got {input.size(-1)}"
            )

    def _check_hidden_size(self, hx, expected, msg="Expected hidden size {}, got {}"):
        if tuple(hx.shape) != tuple(expected):
            raise RuntimeError(msg.format(tuple(expected), list(hx.size())))

    def _run(self, input, h0, c0, lengths=None):
        """input (L, N, H_in); h0/c0 (layers * directions, N, H). Returns output, h_n, c_n.

        With ``lengths`` (a packed batch, padded), sequence b only advances while t < lengths[b],
        so each state stops at its own sequence's end (or, reversed, starts at it)."""
        num_directions = 2 if self.bidirectional else 1
        relu = self.mode == "RNN_RELU"
        layer_input = input
        h_n, c_n = [], []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(num_directions):
                w_ih, w_hh, b_ih, b_hh, w_hr = self._layer_weights(layer, direction)
                index = layer * num_directions + direction
                h = h0[index]
                c = c0[index] if c0 is not None else None
                gi_all = F.linear(layer_input, w_ih, b_ih)  # every time step in one product
                steps = (
                    range(gi_all.size(0) - 1, -1, -1) if direction == 1 else range(gi_all.size(0))
                )
                out_steps = [None] * gi_all.size(0)
                for t in steps:
                    h_prev, c_prev = h, c
                    if self.mode == "LSTM":
                        h, c = _lstm_step(gi_all[t], h, c, w_hh, b_hh, w_hr)
                    elif self.mode == "GRU":
                        h = _gru_step(gi_all[t], h, w_hh, b_hh)
                    else:
                        h = _rnn_step(gi_all[t], h, w_hh, b_hh, relu)
                    if lengths is not None:
                        running = (lengths > t).unsqueeze(1)
                        out_steps[t] = engine.where(running, h, engine.zeros_like(h))
                        h = engine.where(running, h, h_prev)
                        if c is not None:
                            c = engine.where(running, c, c_prev)
                    else:
                        out_steps[t] = h
                if out_steps:
                    outputs.append(engine.stack(out_steps))
                else:
                    out_size = self.proj_size if self.proj_size > 0 else self.hidden_size
                    outputs.append(layer_input.new_zeros((0, layer_input.size(1), out_size)))
                h_n.append(h)
                if c is not None:
                    c_n.append(c)
            layer_output = outputs[0] if num_directions == 1 else engine.cat(outputs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_output = F.dropout(layer_output, self.dropout, True)
            layer_input = layer_output
        return layer_input, engine.stack(h_n), (engine.stack(c_n) if c_n else None)

    def _prepare(self, input, hx, lstm, packed=False):
        batched = packed or input.dim() == 3
        self._check_input(input, 3 if batched else 2)
        if not batched:
            input = input.unsqueeze(1)
        elif self.batch_first and not packed:
            input = input.transpose(0, 1)
        num_directions = 2 if self.bidirectional else 1
        batch = input.size(1)
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        h_shape = (self.num_layers * num_directions, batch, real_hidden)
        c_shape = (self.num_layers * num_directions, batch, self.hidden_size)
        if hx is None:
            h0 = engine.zeros(h_shape, dtype=input.dtype)
            c0 = engine.zeros(c_shape, dtype=input.dtype) if lstm else None
        else:
            if lstm:
                h0, c0 = hx
            else:
                h0, c0 = hx, None
            expected = 3 if batched else 2
            if h0.dim() != expected or (c0 is not None and c0.dim() != expected):
                raise RuntimeError(_hx_rank_message(batched, h0, c0))
            if not batched:
                h0 = h0.unsqueeze(1)
                c0 = c0.unsqueeze(1) if c0 is not None else None
            self._check_hidden_size(h0, h_shape)
            if c0 is not None:
                self._check_hidden_size(c0, c_shape, "Expected hidden[1] size {}, got {}")
        return input, h0, c0, batched

    def _finish(self, output, batched):
        if not batched:
            return output.squeeze(1)
        return output.transpose(0, 1) if self.batch_first else output


def _unpack_input(input):
    """(padded input, lengths, the PackedSequence) for a packed input, in its sorted order (as
    PyTorch runs it); (input, None, None) otherwise."""
    if isinstance(input, PackedSequence):
        padded, lengths = _padded_sorted(input)
        return padded, lengths, input
    return input, None, None


def _sorted_hidden(hx, packed):
    # The caller's hidden state is in the original batch order; a packed batch runs sorted.
    if hx is None or packed is None or packed.sorted_indices is None:
        return hx
    if isinstance(hx, tuple):
        return tuple(h.index_select(1, packed.sorted_indices) for h in hx)
    return hx.index_select(1, packed.sorted_indices)


def _original_order(h, packed):
    if packed is None or packed.unsorted_indices is None:
        return h
    return h.index_select(1, packed.unsorted_indices)


class RNN(RNNBase):
    """Elman RNN: h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh) (or relu)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(
                f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        input, lengths, packed = _unpack_input(input)
        hx = _sorted_hidden(hx, packed)
        input, h0, _, batched = self._prepare(input, hx, lstm=False, packed=packed is not None)
        output, h_n, _ = self._run(input, h0, None, lengths)
        if packed is not None:
            return _pack_like(output, packed), _original_order(h_n, packed)
        return self._finish(output, batched), (h_n if batched else h_n.squeeze(1))


class LSTM(RNNBase):
    """Long short-term memory, optionally with projections (``proj_size``)."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input, hx=None):
        input, lengths, packed = _unpack_input(input)
        hx = _sorted_hidden(hx, packed)
        input, h0, c0, batched = self._prepare(input, hx, lstm=True, packed=packed is not None)
        # Under CPU autocast PyTorch runs the whole layer in lower precision (its weights are
        # cast by the products they enter).
        input, h0, c0 = _policy.cast_inputs("nn.LSTM", input, h0, c0)
        output, h_n, c_n = self._run(input, h0, c0, lengths)
        if packed is not None:
            return _pack_like(output, packed), (
                _original_order(h_n, packed),
                _original_order(c_n, packed),
            )
        if not batched:
            h_n, c_n = h_n.squeeze(1), c_n.squeeze(1)
        return self._finish(output, batched), (h_n, c_n)


class GRU(RNNBase):
    """Gated recurrent unit."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        input, lengths, packed = _unpack_input(input)
        hx = _sorted_hidden(hx, packed)
        input, h0, _, batched = self._prepare(input, hx, lstm=False, packed=packed is not None)
        output, h_n, _ = self._run(input, h0, None, lengths)
        if packed is not None:
            return _pack_like(output, packed), _original_order(h_n, packed)
        return self._finish(output, batched), (h_n if batched else h_n.squeeze(1))


class RNNCellBase(Module):
    """One time step of a recurrent layer: weight_ih, weight_hh and the biases."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        dtype = dtype if dtype is not None else engine.get_default_dtype()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(
            engine.empty((num_chunks * hidden_size, input_size), dtype=dtype, device=device)
        )
        self.weight_hh = Parameter(
            engine.empty((num_chunks * hidden_size, hidden_size), dtype=dtype, device=device)
        )
        if bias:
            self.bias_ih = Parameter(
                engine.empty(num_chunks * hidden_size, dtype=dtype, device=device)
            )
            self.bias_hh = Parameter(
                engine.empty(num_chunks * hidden_size, dtype=dtype, device=device)
            )
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        """Every weight and bias from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batched(self, input, name):
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        return input.dim() == 2

    def _check_step_shapes(self, input, hiddens):
        # ATen's check_rnn_cell_forward_input / _hidden, so a wrong size is named as PyTorch
        # names it rather than surfacing as a matmul or broadcasting error.
        if input.size(1) != self.weight_ih.size(1):
            raise RuntimeError(
                f"input has inconsistent input_size: got {input.size(1)} "
                f"expected {self.weight_ih.size(1)}"
            )
        hidden_size = self.weight_hh.size(1)
        for label, hx in enumerate(hiddens):
            if input.size(0) != hx.size(0):
                raise RuntimeError(
                    f"Input batch size {input.size(0)} doesn't match hidden{label} "
                    f"batch size {hx.size(0)}"
                )
            if hx.dim() < 2:
                raise IndexError(
                    "Dimension out of range (expected to be in range of [-1, 0], but got 1)"
                )
            if hx.size(1) != hidden_size:
                raise RuntimeError(
                    f"hidden{label} has inconsistent hidden_size: got {hx.size(1)}, "
                    f"expected {hidden_size}"
                )

    def _hidden(self, hx, input, batched, name, what="hx"):
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got {hx.dim()}D instead")
        if hx is None:
            return engine.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
        return hx if batched else hx.unsqueeze(0)


class RNNCell(RNNCellBase):
    """One step of an Elman RNN."""

    def __init__(
        self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None
    ):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        batched = self._batched(input, "RNNCell")
        if not batched:
            input = input.unsqueeze(0)
        hx = self._hidden(hx, input, batched, "RNNCell")
        self._check_step_shapes(input, (hx,))
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        gi = F.linear(input, self.weight_ih, self.bias_ih)
        ret = _rnn_step(gi, hx, self.weight_hh, self.bias_hh, self.nonlinearity == "relu")
        return ret if batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One step of an LSTM; returns ``(h, c)``."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        batched = self._batched(input, "LSTMCell")
        if hx is not None and hx[0].dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected hx[0] to be 1D or 2D, got {hx[0].dim()}D instead")
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = engine.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            hx = (zeros, zeros)
        elif not batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        self._check_step_shapes(input, hx)
        gi = F.linear(input, self.weight_ih, self.bias_ih)
        h, c = _lstm_step(gi, hx[0], hx[1], self.weight_hh, self.bias_hh, None)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One step of a GRU."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        batched = self._batched(input, "GRUCell")
        if not batched:
            input = input.unsqueeze(0)
        hx = self._hidden(hx, input, batched, "GRUCell")
        self._check_step_shapes(input, (hx,))
        gi = F.linear(input, self.weight_ih, self.bias_ih)
        ret = _gru_step(gi, hx, self.weight_hh, self.bias_hh)
        return ret if batched else ret.squeeze(0)
