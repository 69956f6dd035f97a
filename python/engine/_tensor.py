"""The Python half of Tensor: methods that are glue rather than computation."""

from engine import _C
from engine._tensor_str import tensor_repr


class Size(tuple):
    """A tensor's shape: a tuple of ints that prints as ``torch.Size([2, 3])``."""

    __slots__ = ()

    def __repr__(self):
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

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
    if not -max(n, 1) <= dim < max(n, 1):
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-max(n, 1)}, {max(n, 1) - 1}], "
            f"but got {dim})"
        )
    return shape[dim] if n else 1


def _backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Computes the gradient of this tensor w.r.t. the graph leaves (see ``autograd.backward``)."""
    from engine.autograd import backward

    backward(self, gradient, retain_graph, create_graph, inputs=inputs)


def _iter(self):
    if self.dim() == 0:
        raise TypeError("iteration over a 0-d tensor")
    return (self.select(0, i) for i in range(self._shape[0]))


def _format(self, spec):
    if self.dim() == 0:
        return self.item().__format__(spec)
    return object.__format__(self, spec)


def _array(self, dtype=None, copy=None):
    arr = self.detach().numpy()
    return arr if dtype is None else arr.astype(dtype, copy=False)


def _install():
    T = _C.Tensor
    T.__module__ = "engine"
    T.__repr__ = tensor_repr
    T.__str__ = tensor_repr
    T.__format__ = _format
    T.__iter__ = _iter
    T.__array__ = _array
    T.shape = property(_shape)
    T.size = _size
    T.backward = _backward
    T.is_cuda = False


_install()
