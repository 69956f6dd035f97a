"""gradcheck of complex functions, restated over the reals.

A complex tensor is its ``view_as_real`` pair (real, imaginary), and engine's gradient of a real
loss with respect to ``z = x + iy`` is ``dL/dx + i dL/dy`` (PyTorch's convention). So a function of
complex tensors is checked as the real function that takes and returns those pairs: its real
Jacobian holds the derivatives along both parts, which is what PyTorch's gradcheck compares for
complex inputs and outputs (a backward wrong for the real or the imaginary direction fails)."""

from engine import _C


def _is_complex_tensor(x):
    return _C.is_tensor(x) and x.dtype.is_complex


def _pairs(x):
    return _C.view_as_real(x) if _is_complex_tensor(x) else x


def realified(func, inputs):
    """(real_func, real_inputs): complex inputs as fresh real pairs requiring grad as they do,
    complex outputs of func as their real views. Real-only problems come back unchanged."""
    complex_idx = {i for i, x in enumerate(inputs) if _is_complex_tensor(x)}

    def real_outputs(out):
        if _C.is_tensor(out):
            return _pairs(out)
        if not isinstance(out, (tuple, list)) or not any(_is_complex_tensor(o) for o in out):
            return out  # as func gave it (a named tuple of real tensors stays one)
        return tuple(_pairs(o) for o in out)

    def real_func(*xs):
        args = [_C.view_as_complex(x) if i in complex_idx else x for i, x in enumerate(xs)]
        return real_outputs(func(*args))

    real_inputs = tuple(
        _C.view_as_real(x.detach()).clone().requires_grad_(x.requires_grad)
        if i in complex_idx
        else x
        for i, x in enumerate(inputs)
    )
    return real_func, real_inputs
