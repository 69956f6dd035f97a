"""Creation helpers written over the native factories: eye, as_tensor, the random ``*_like``
functions and the ``Tensor.new_*`` methods (which take the dtype of the tensor they are called on)."""

from engine import _C, _transforms
from engine._device import check_cpu

# Keywords the ``Tensor.new_*`` methods accept besides dtype/device/requires_grad (PyTorch's
# signature); anything else is a TypeError, as there.
_NEW_KEYWORDS = ("layout", "pin_memory")


def _finish(t, requires_grad):
    return t.requires_grad_(True) if requires_grad else t


def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """A 2-D tensor with ones on the diagonal and zeros elsewhere: the n x m identity matrix.

    Args:
        n (int): the number of rows.
        m (int, optional): the number of columns. Default: ``n``.

    Keyword args:
        dtype (engine.dtype, optional): the dtype. Default: the default dtype.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool): whether autograd records operations on it. Default: ``False``.
        out (Tensor, optional): the output tensor.

    Example::

        >>> engine.eye(2, 3)
        tensor([[1., 0., 0.],
                [0., 1., 0.]])
    """
    check_cpu(device)
    m = n if m is None else m
    for name, v in (("n", n), ("m", m)):
        if not isinstance(v, int) or isinstance(v, bool):
            kind = "type" if isinstance(v, type) else type(v).__name__
            raise TypeError(f"eye(): argument '{name}' must be int, not {kind}")
        if v < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {v}")
    t = _C.zeros(n, m, dtype=dtype)
    t.diagonal().fill_(1)
    _C._autograd._unsafe_set_version_counter((t,), (0,))  # a fresh result, as PyTorch's
    if out is not None:
        # PyTorch's eye_out resizes out (silently) and writes the identity in out's dtype.
        if not isinstance(out, _C.Tensor):
            raise TypeError(f"eye(): argument 'out' must be Tensor, not {type(out).__name__}")
        return out.resize_(n, m).copy_(t)
    return _finish(t, requires_grad)


def as_tensor(data, dtype=None, device=None):
    """``data`` as a tensor, without copying when it already is one (a tensor, or a NumPy array
    whose memory a tensor can share) of the requested dtype; otherwise like :func:`tensor`.

    Args:
        data: a tensor, NumPy array, number, or (nested) list or tuple.
        dtype (engine.dtype, optional): the result's dtype. Default: inferred from ``data``.
        device (str or engine.device, optional): only ``'cpu'`` is supported.

    Example::

        >>> t = engine.tensor([1.0, 2.0])
        >>> engine.as_tensor(t) is t
        True
        >>> engine.as_tensor([1, 2], dtype=engine.float64)
        tensor([1., 2.], dtype=torch.float64)
    """
    check_cpu(device)
    if _C.is_tensor(data):
        return data if dtype is None or data.dtype == dtype else data.to(dtype)
    return _C.tensor(data, dtype=dtype)


def _like(input, dtype):
    return input.dtype if dtype is None else dtype


def rand_like(
    input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None
):
    """Uniform samples in [0, 1) with input's shape (and dtype unless given)."""
    check_cpu(device)
    return _C.rand(*input.shape, dtype=_like(input, dtype), requires_grad=requires_grad)


def randn_like(
    input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None
):
    """Standard normal samples with input's shape (and dtype unless given)."""
    check_cpu(device)
    return _C.randn(*input.shape, dtype=_like(input, dtype), requires_grad=requires_grad)


def randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None, requires_grad=False,
                 memory_format=None):  # fmt: skip
    """Integers in [low, high) with input's shape (and dtype unless given); randint_like(x, high)
    draws from [0, high)."""
    check_cpu(device)
    if high is None:
        low, high = 0, low
    t = _C.randint(low, high, tuple(input.shape), dtype=_like(input, dtype))
    return _finish(t, requires_grad)


def _sizes(args):
    return tuple(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list)) else args


def _new_size(name, size, kwargs):
    """The shape a ``Tensor.new_*`` call asks for: positional ints or one sequence, or the
    ``size=`` keyword (which PyTorch accepts too)."""
    for key in kwargs:
        if key not in _NEW_KEYWORDS and key != "size":
            raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
    if "size" in kwargs:
        if size:
            raise TypeError(f"{name}() got multiple values for argument 'size'")
        return (kwargs["size"],)
    return size


def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    """A new tensor holding a copy of ``data``, with this tensor's dtype unless ``dtype`` is
    given (like :func:`engine.tensor`, which infers the dtype from the data instead).

    Args:
        data: a number, (nested) list or tuple, NumPy array or tensor.

    Keyword args:
        dtype (engine.dtype, optional): the result's dtype. Default: ``self.dtype``.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool): whether autograd records operations on it. Default: ``False``.

    Example::

        >>> engine.zeros(1, dtype=engine.float64).new_tensor([1, 2])
        tensor([1., 2.], dtype=torch.float64)
    """
    check_cpu(device)
    t = _C.tensor(data, dtype=self.dtype if dtype is None else dtype)
    return _finish(t, requires_grad)


@_transforms.values_op
def new_zeros(self, *size, dtype=None, device=None, requires_grad=False, **kwargs):
    """A tensor of zeros of shape ``size``, with this tensor's dtype unless ``dtype`` is given.

    Args:
        *size (ints or a tuple): the shape.

    Keyword args:
        dtype (engine.dtype, optional): the result's dtype. Default: ``self.dtype``.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool): whether autograd records operations on it. Default: ``False``.

    Example::

        >>> engine.tensor([1, 2]).new_zeros(2, 2)
        tensor([[0, 0],
                [0, 0]])
    """
    check_cpu(device)
    size = _new_size("new_zeros", size, kwargs)
    return _C.zeros(*_sizes(size), dtype=_like(self, dtype), requires_grad=requires_grad)


@_transforms.values_op
def new_ones(self, *size, dtype=None, device=None, requires_grad=False, **kwargs):
    """A tensor of ones of shape ``size``, with this tensor's dtype unless ``dtype`` is given.

    Args:
        *size (ints or a tuple): the shape.

    Keyword args:
        dtype (engine.dtype, optional): the result's dtype. Default: ``self.dtype``.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool): whether autograd records operations on it. Default: ``False``.

    Example::

        >>> engine.zeros(1, dtype=engine.float64).new_ones(3)
        tensor([1., 1., 1.], dtype=torch.float64)
    """
    check_cpu(device)
    size = _new_size("new_ones", size, kwargs)
    return _C.ones(*_sizes(size), dtype=_like(self, dtype), requires_grad=requires_grad)


@_transforms.values_op
def new_empty(self, *size, dtype=None, device=None, requires_grad=False, **kwargs):
    """An uninitialised tensor of the given size, with self's dtype unless given."""
    check_cpu(device)
    size = _new_size("new_empty", size, kwargs)
    return _C.empty(*_sizes(size), dtype=_like(self, dtype), requires_grad=requires_grad)


@_transforms.values_op
def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False, **kwargs):
    """A tensor of shape ``size`` filled with ``fill_value``, with this tensor's dtype unless
    ``dtype`` is given.

    Args:
        size (list or tuple of ints): the shape.
        fill_value (Number): the value.

    Keyword args:
        dtype (engine.dtype, optional): the result's dtype. Default: ``self.dtype``.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool): whether autograd records operations on it. Default: ``False``.

    Example::

        >>> engine.tensor([1.0]).new_full((2,), 7)
        tensor([7., 7.])
    """
    check_cpu(device)
    _new_size("new_full", (), kwargs)
    return _C.full(size, fill_value, dtype=_like(self, dtype), requires_grad=requires_grad)


def install(T):
    """The Tensor methods of this module, and the device-related ones."""
    T.new_tensor = new_tensor
    T.new_zeros = new_zeros
    T.new_ones = new_ones
    T.new_empty = new_empty
    T.new_full = new_full
