"""The functional recurrent cells nn.RNNCell, nn.GRUCell and nn.LSTMCell stand on:
``engine.rnn_tanh_cell``, ``rnn_relu_cell``, ``gru_cell`` and ``lstm_cell``, with PyTorch's
arguments ``(input, hx, w_ih, w_hh, b_ih=None, b_hh=None)``, its shape checks and their messages.
Each is composed of differentiable ops (two linear maps and the cell's gates), so gradients of
any order flow to the input, the hidden state and every weight."""

from engine import _C

_Tensor = _C.Tensor


def _check_tensor(fname, name, position, value, optional=False):
    if value is None and optional:
        return
    if not isinstance(value, _Tensor):
        raise TypeError(
            f"{fname}(): argument '{name}' (position {position}) must be Tensor, not "
            f"{type(value).__name__}"
        )


def _check_arguments(fname, input, hx, w_ih, w_hh, b_ih, b_hh):
    _check_tensor(fname, "input", 1, input)
    if fname != "lstm_cell":
        _check_tensor(fname, "hx", 2, hx)
    _check_tensor(fname, "w_ih", 3, w_ih)
    _check_tensor(fname, "w_hh", 4, w_hh)
    _check_tensor(fname, "b_ih", 5, b_ih, optional=True)
    _check_tensor(fname, "b_hh", 6, b_hh, optional=True)


def _check_shapes(input, hiddens, w_ih, w_hh, gates):
    """PyTorch's cell checks, in its order: input width, each hidden state's batch and width, then
    the rows of both weights (``gates`` blocks of hidden_size)."""
    input_size, hidden_size = w_ih.size(1), w_hh.size(1)
    if input.size(1) != input_size:
        raise RuntimeError(
            f"input has inconsistent input_size: got {input.size(1)} expected {input_size}"
        )
    for label, h in enumerate(hiddens):
        if input.size(0) != h.size(0):
            raise RuntimeError(
                f"Input batch size {input.size(0)} doesn't match hidden{label} batch size "
                f"{h.size(0)}"
            )
        if h.size(1) != hidden_size:
            raise RuntimeError(
                f"hidden{label} has inconsistent hidden_size: got {h.size(1)}, expected "
                f"{hidden_size}"
            )
    for name, w in (("weight_ih", w_ih), ("weight_hh", w_hh)):
        if w.size(0) != gates * hidden_size:
            raise RuntimeError(
                f"{name} first dim must be {gates} * hidden_size = {gates * hidden_size}, but "
                f"got {w.size(0)}"
            )


def _linear(x, w, b):
    if b is not None and b.dim() == 1 and b.size(0) != w.size(0):
        # PyTorch adds the bias by expanding it to the product's shape: its message.
        raise RuntimeError(
            f"The expanded size of the tensor ({w.size(0)}) must match the existing size "
            f"({b.size(0)}) at non-singleton dimension 1.  Target sizes: [{x.size(0)}, "
            f"{w.size(0)}].  Tensor sizes: [{b.size(0)}]"
        )
    return _C.linear(x, w, b)


def _simple_cell(fname, activation, input, hx, w_ih, w_hh, b_ih, b_hh):
    _check_arguments(fname, input, hx, w_ih, w_hh, b_ih, b_hh)
    _check_shapes(input, (hx,), w_ih, w_hh, 1)
    return activation(_linear(input, w_ih, b_ih) + _linear(hx, w_hh, b_hh))


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One step of an Elman RNN with tanh: ``tanh(input @ w_ih.T + b_ih + hx @ w_hh.T + b_hh)``
    (what :class:`engine.nn.RNNCell` computes). ``input`` is (batch, input_size), ``hx``
    (batch, hidden_size), ``w_ih`` (hidden_size, input_size), ``w_hh`` (hidden_size,
    hidden_size); the biases are optional.

    Example::

        >>> h = engine.rnn_tanh_cell(engine.ones(2, 3), engine.zeros(2, 4), engine.ones(4, 3),
        ...                          engine.ones(4, 4))
        >>> tuple(h.shape)
        (2, 4)
    """
    return _simple_cell("rnn_tanh_cell", _C.tanh, input, hx, w_ih, w_hh, b_ih, b_hh)


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One step of an Elman RNN with ReLU: ``relu(input @ w_ih.T + b_ih + hx @ w_hh.T + b_hh)``;
    the arguments as :func:`rnn_tanh_cell`'s."""
    return _simple_cell("rnn_relu_cell", _C.relu, input, hx, w_ih, w_hh, b_ih, b_hh)


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One step of a GRU (what :class:`engine.nn.GRUCell` computes): with the reset, update and
    new gates ``r, z, n`` of ``input @ w_ih.T + b_ih`` and ``hx @ w_hh.T + b_hh``, the new hidden
    state ``(1 - z) * n + z * hx``. ``w_ih`` is (3 * hidden_size, input_size), ``w_hh``
    (3 * hidden_size, hidden_size)."""
    _check_arguments("gru_cell", input, hx, w_ih, w_hh, b_ih, b_hh)
    _check_shapes(input, (hx,), w_ih, w_hh, 3)
    i_r, i_z, i_n = _linear(input, w_ih, b_ih).chunk(3, 1)
    h_r, h_z, h_n = _linear(hx, w_hh, b_hh).chunk(3, 1)
    r = _C.sigmoid(i_r + h_r)
    z = _C.sigmoid(i_z + h_z)
    n = _C.tanh(i_n + r * h_n)
    return n + z * (hx - n)


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One step of an LSTM (what :class:`engine.nn.LSTMCell` computes): ``hx`` is the pair
    ``(h, c)``; returns the new ``(h, c)``. The input, forget, cell and output gates are the four
    blocks of ``input @ w_ih.T + b_ih + h @ w_hh.T + b_hh``; ``w_ih`` is
    (4 * hidden_size, input_size), ``w_hh`` (4 * hidden_size, hidden_size)."""
    _check_arguments("lstm_cell", input, hx, w_ih, w_hh, b_ih, b_hh)
    if not isinstance(hx, (tuple, list)) or not all(isinstance(h, _Tensor) for h in hx):
        raise TypeError(
            "lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not "
            f"{type(hx).__name__}"
        )
    if len(hx) != 2:
        raise RuntimeError("lstm_cell expects two hidden states")
    h, c = hx
    _check_shapes(input, (h, c), w_ih, w_hh, 4)
    gates = _linear(input, w_ih, b_ih) + _linear(h, w_hh, b_hh)
    i, f, g, o = gates.chunk(4, 1)
    cy = _C.sigmoid(f) * c + _C.sigmoid(i) * _C.tanh(g)
    hy = _C.sigmoid(o) * _C.tanh(cy)
    return hy, cy


def install(namespace):
    """Puts the four cells on ``engine``."""
    for fn in (rnn_tanh_cell, rnn_relu_cell, gru_cell, lstm_cell):
        namespace[fn.__name__] = fn
