"""The Python half of Tensor: methods that are glue rather than computation."""

from engine import _C
from engine._device import CPU, META, check_cpu
from engine._tensor_str import tensor_repr


class Size(tuple):
    """A tensor's shape: a tuple of ints that prints as ``torch.Size([2, 3])``."""

    __slots__ = ()

    def __repr__(self):
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    # Slices and concatenations of a shape are shapes too, as in PyTorch.
    def __getitem__(self, key):
        item = tuple.__getitem__(self, key)
        return Size(item) if isinstance(key, slice) else item

    def __add__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, n):
        return Size(tuple.__mul__(self, n))

    __rmul__ = __mul__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n


def _shape(self):
    return Size(self._shape)


def _size(self, dim=None):
    shape = self._shape
    if dim is None:
        return Size(shape)
    n = len(shape)
    if n == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return shape[dim]


def _iter(self):
    if self.dim() == 0:
        raise TypeError("iteration over a 0-d tensor")
    return (self.select(0, i) for i in range(self._shape[0]))


def _format(self, spec):
    if self.dim() == 0:
        return self.item().__format__(spec)
    return object.__format__(self, spec)


def _array(self, dtype=None, copy=None):
    # NumPy 2 trusts __array__ to honour `copy`: np.array(t) asks for a copy and must not alias t.
    arr = self.numpy()  # refuses a tensor that requires grad, as PyTorch does
    if dtype is not None:
        return arr.astype(dtype, copy=bool(copy))
    return arr.copy() if copy else arr


def _rebuild_tensor(data, dtype, shape, requires_grad):
    """Unpickles a tensor: its elements (native byte order) as a new contiguous leaf."""
    import numpy as np

    arr = np.frombuffer(data, dtype=str(dtype).replace("torch.", "")).reshape(shape)
    t = _C.from_numpy(arr.copy())
    if requires_grad:
        t.requires_grad_(True)
    return t


def _reduce_ex(self, protocol):
    # Elements, dtype, shape and requires_grad: a non-leaf comes back as a leaf, as in PyTorch.
    data = self.detach().contiguous().numpy().tobytes()
    return (_rebuild_tensor, (data, self.dtype, tuple(self.shape), self.requires_grad))


def _deepcopy(self, memo):
    if not self.is_leaf:
        raise RuntimeError(
            "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the "
            "moment.  If you were attempting to deepcopy a module, this may be because of a "
            "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001"
        )
    if id(self) in memo:
        return memo[id(self)]
    import copy

    new = self.detach().clone()
    new.requires_grad_(self.requires_grad)
    memo[id(self)] = new
    if self.grad is not None:
        new.grad = copy.deepcopy(self.grad, memo)
    return new


def _refuse_pickle(self, protocol):
    # A graph node holds a piece of a live computation: there is nothing meaningful to restore.
    name = self.name() if isinstance(self, _C.Node) else type(self).__name__
    raise TypeError(f"cannot pickle '{name}' object")


def _cuda(self, device=None, non_blocking=False, memory_format=None):
    check_cpu(
        "cuda" if device is None else device if not isinstance(device, int) else f"cuda:{device}"
    )


def _install():
    T = _C.Tensor
    T.__module__ = "engine"
    # Assigning __name__ also resets the C-level tp_name ("engine._C.Tensor" as pybind11 built it),
    # which Python's own messages use: "unsupported operand type(s) for +: 'Tensor' and 'str'".
    T.__name__ = "Tensor"
    T.__repr__ = tensor_repr
    T.__str__ = tensor_repr
    T.__format__ = _format
    T.__iter__ = _iter
    T.__array__ = _array
    T.shape = property(_shape)
    T.size = _size
    T.is_cuda = False
    T.device = property(
        lambda self: META if _C._meta_is(self) else CPU,
        doc="The device the tensor lives on: the CPU, or the meta device (no data).",
    )
    T.cuda = _cuda
    T.__reduce_ex__ = _reduce_ex
    # A direct __reduce__() call would reach copyreg's protocol-0 path, which instantiates the
    # native base class itself: route it to the same reduction.
    T.__reduce__ = lambda self: self.__reduce_ex__(2)
    T.__deepcopy__ = _deepcopy
    for node_type in (_C.Node, _C._FunctionCtx, _C.Generator):
        node_type.__reduce_ex__ = _refuse_pickle
        node_type.__reduce__ = lambda self: _refuse_pickle(self, 2)


_install()
