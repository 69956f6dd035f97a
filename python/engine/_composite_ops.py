"""Operations PyTorch provides that are compositions of engine's native ones (the BLAS-style
``add*`` family, ``trace``, ``diff``, ``tile``, ``movedim``, ``kron``, ``tensordot``, the NaN-aware
reductions, ...). Being compositions of differentiable ops, each is differentiable to any order;
where a naive composition would have a wrong derivative, the branch is made safe."""

import contextlib
import math

from engine import _C, _grad_fn_names, _transforms
from engine._out_param import accepts_out, same_as_result, write
from engine._out_rules import nansum_out, same_as_input, tensordot_out
from engine._scalar_type_names import scalar_type_name
from engine.amp._policy import autocast_op
from engine.autograd.grad_mode import no_grad

_Tensor = _C.Tensor


def _type_name(value):
    return "type" if isinstance(value, type) else type(value).__name__


def _tensor_arg(fname, value, arg, position):
    if not isinstance(value, _Tensor):
        raise TypeError(
            f"{fname}(): argument '{arg}' (position {position}) must be Tensor, not {_type_name(value)}"
        )


def _scaled_sum(fname, input, product, beta, alpha):
    """beta * input + alpha * product, with input broadcast to the product's shape; beta = 0
    ignores input's values (NaN included), as PyTorch does."""
    input.expand(tuple(product.shape))  # PyTorch checks the shapes even when beta == 0
    if not product.dtype.is_floating_point and not isinstance(beta, complex):
        # PyTorch's integer kernels take beta and alpha in the integer type (0.5 becomes 0),
        # which keeps the result integral.
        beta, alpha = int(beta), int(alpha)
    if alpha != 1:
        product = product * alpha
    if beta == 0:
        return product
    return product + (input if beta == 1 else input * beta)


@accepts_out(same_as_result)
@autocast_op("addmm")
def addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * (mat1 @ mat2)`` for matrices ``mat1`` (n, m) and ``mat2``
    (m, p); ``input`` broadcasts to (n, p). With ``beta=0``, ``input`` is ignored (NaN in it
    does not propagate).

    Args:
        input (Tensor): the matrix added.
        mat1 (Tensor): the first matrix of the product.
        mat2 (Tensor): the second matrix of the product.

    Keyword args:
        beta (Number): the multiplier of ``input``. Default: 1.
        alpha (Number): the multiplier of the product. Default: 1.
        out (Tensor, optional): the output tensor, of the result's dtype.

    Example::

        >>> engine.addmm(engine.ones(2, 2), engine.eye(2), engine.tensor([[1.0, 2.0], [3.0, 4.0]]), beta=0.5)
        tensor([[1.5000, 2.5000],
                [3.5000, 4.5000]])
    """
    for i, (name, t) in enumerate((("input", input), ("mat1", mat1), ("mat2", mat2))):
        _tensor_arg("addmm", t, name, i + 1)
    for name, t in (("mat1", mat1), ("mat2", mat2)):
        if t.dim() != 2:
            raise RuntimeError(f"{name} must be a matrix, got {t.dim()}-D tensor")
    marked = _C._transform_state
    if (
        isinstance(beta, complex)
        or isinstance(alpha, complex)
        or marked(input) is not None
        or marked(mat1) is not None
        or marked(mat2) is not None
    ):
        # Under a function transform the composition itself is transformed.
        return _grad_fn_names.name_grad_fn(
            _scaled_sum("addmm", input, _C.mm(mat1, mat2), beta, alpha), "AddmmBackward0", (input,)
        )
    # Computed without recording, then one AddmmBackward0 node of (input, mat1, mat2), as PyTorch's.
    with no_grad():
        out = _scaled_sum("addmm", input, _C.mm(mat1, mat2), beta, alpha)
    return _C._record_addmm(out, input, mat1, mat2, float(beta), float(alpha))


@accepts_out(same_as_result)
def addmv(input, mat, vec, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * (mat @ vec)`` for a matrix and a vector."""
    for i, (name, t) in enumerate((("input", input), ("mat", mat), ("vec", vec))):
        _tensor_arg("addmv", t, name, i + 1)
    if mat.dim() != 2 or vec.dim() != 1:
        raise RuntimeError(
            f"vector + matrix @ vector expected, got {input.dim()}, {mat.dim()}, {vec.dim()}"
        )
    return _scaled_sum("addmv", input, _C.mv(mat, vec), beta, alpha)


def _check_batches(fname, b1, b2):
    for i, (name, t) in enumerate((("batch1", b1), ("batch2", b2))):
        _tensor_arg(fname, t, name, i + 2)
        if t.dim() != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")


@accepts_out(same_as_result)
@autocast_op("baddbmm")
def baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * (batch1 @ batch2)`` over a batch of matrix products."""
    _tensor_arg("baddbmm", input, "input", 1)
    _check_batches("baddbmm", batch1, batch2)
    return _scaled_sum("baddbmm", input, _C.bmm(batch1, batch2), beta, alpha)


def _addbmm_out(fname, inputs, out, result, field=None):
    """addbmm: out must have the batches' dtype (PyTorch's message names out "self")."""
    if out.dtype != result.dtype:
        raise RuntimeError(
            "self and mat2 must have the same dtype, but got "
            f"{scalar_type_name(out.dtype)} and {scalar_type_name(result.dtype)}"
        )


@accepts_out(_addbmm_out)
@autocast_op("addbmm")
def addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``."""
    _tensor_arg("addbmm", input, "input", 1)
    _check_batches("addbmm", batch1, batch2)
    out = _scaled_sum("addbmm", input, _C.bmm(batch1, batch2).sum(0), beta, alpha)
    # PyTorch's node keeps the sizes its backward needs, and each batch where the other one's
    # gradient needs it.
    shown = {
        "alpha": alpha,
        "batch1": batch1 if batch2.requires_grad else None,
        "batch2": batch2 if batch1.requires_grad else None,
        "batch1_sym_argsize_0": batch1.shape[0],
        "batch1_sym_argsize_1": batch1.shape[1],
        "batch2_sym_argsize_2": batch2.shape[2],
        "beta": beta,
    }
    return _grad_fn_names.name_grad_fn(out, "AddbmmBackward0", (input,), shown, only_shown=True)


def addcmul(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 * tensor2``, broadcast."""
    if all(isinstance(t, _C.Tensor) and t.dtype == _C.bool for t in (input, tensor1, tensor2)):
        # PyTorch's kernel runs in the promoted dtype and has no bool form.
        raise NotImplementedError("\"addcmul_cpu_out\" not implemented for 'Bool'")
    records = _addc_records(input, tensor1, tensor2, value)
    with no_grad() if records else contextlib.nullcontext():
        product = tensor1 * tensor2
        if isinstance(value, float) and not (
            product.dtype.is_floating_point or _C.result_type(input, product).is_floating_point
        ):
            value = int(value)  # PyTorch's integer kernel takes value in its own type (2.5 -> 2)
        out = input + (product if value == 1 else product * value)
    if records:  # one node, AddcmulBackward0, as PyTorch's
        return _C._record_addc(out, False, input, tensor1, tensor2, value)
    return _grad_fn_names.name_grad_fn(out, "AddcmulBackward0", (input,))


def _addc_records(input, tensor1, tensor2, value):
    """Whether addcmul / addcdiv gets its own node: three tensors, a plain number value, some
    tensor recording and no function transform open (they differentiate the composition)."""
    if _transforms._open or not _C.is_grad_enabled():
        return False
    tensors = (input, tensor1, tensor2)
    if not all(isinstance(t, _C.Tensor) for t in tensors) or type(value) not in (int, float):
        return False
    # The node's rules are the real ones (complex gradients take conjugates: the composition).
    return any(t.requires_grad for t in tensors) and not any(t.is_complex() for t in tensors)


def addcdiv(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 / tensor2``, broadcast; integer inputs are refused, as PyTorch."""
    if not tensor1.is_floating_point() and not tensor2.is_floating_point():
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future release addcdiv will "
            "perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented "
            "as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
            "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the "
            "latter implementation: (input + value * tensor1 / tensor2), for all dtypes."
        )
    records = _addc_records(input, tensor1, tensor2, value)
    with no_grad() if records else contextlib.nullcontext():
        quotient = tensor1 / tensor2
        out = input + (quotient if value == 1 else quotient * value)
    if records:  # one node, AddcdivBackward0, as PyTorch's
        return _C._record_addc(out, True, input, tensor1, tensor2, value)
    return _grad_fn_names.name_grad_fn(out, "AddcdivBackward0", (input,))


@autocast_op("trace")
def trace(input):
    """The sum of a matrix's diagonal (int64 for integer matrices)."""
    _tensor_arg("trace", input, "input", 1)
    if input.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.dim()}")
    if input.dtype == _C.bool:
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    if input.requires_grad and _C.is_grad_enabled() and not _transforms._open:
        with no_grad():  # one node, TraceBackward0, as PyTorch's
            out = _C.diagonal(input).sum()
        return _C._record_trace(out, input)
    return _grad_fn_names.name_grad_fn(_C.diagonal(input).sum(), "TraceBackward0", (input,))


@accepts_out()
def diff(input, n=1, dim=-1, prepend=None, append=None, *, out=None):
    """The n-th forward difference along dim, after joining prepend and append."""
    _tensor_arg("diff", input, "input", 1)
    if input.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    parts = [p for p in (prepend, input, append) if p is not None]
    out = _C.cat(parts, dim) if len(parts) > 1 else input
    for _ in range(n):
        size = out.shape[dim]
        if size == 0:
            break
        later, earlier = out.narrow(dim, 1, size - 1), out.narrow(dim, 0, size - 1)
        out = later.logical_xor(earlier) if out.dtype == _C.bool else later - earlier
    return out


def tile(input, dims):
    """input repeated along each dim; dims shorter than input.dim() are padded with 1s in front."""
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    dims = (1,) * (input.dim() - len(dims)) + dims
    return input.repeat(*dims)


def _dims(value):
    return [value] if isinstance(value, int) else list(value)


def _wrapped(dims, n):
    bound = max(n, 1)
    for d in dims:
        if not -bound <= d < bound:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-bound}, {bound - 1}], but got {d})"
            )
    return [d % bound for d in dims]


def movedim(input, source, destination):
    """input with the dims in `source` moved to the positions in `destination`, the others kept in
    order."""
    src, dst = _dims(source), _dims(destination)
    if len(src) != len(dst):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({src} dims) should contain the same "
            f"number of dims as destination ({dst} dims)"
        )
    n = input.dim()
    src, dst = _wrapped(src, n), _wrapped(dst, n)
    for name, dims in (("source", src), ("destination", dst)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({dims})")
    if n == 0:
        return input.view(())
    order = [None] * n
    for s_, d in zip(src, dst):
        order[d] = s_
    rest = iter(d for d in range(n) if d not in src)
    return input.permute(*[next(rest) if o is None else o for o in order])


@accepts_out()
def kron(input, other, *, out=None):
    """The Kronecker product: blocks ``input[i] * other`` laid out over a shape of products."""
    _tensor_arg("kron", input, "input", 1)
    _tensor_arg("kron", other, "other", 2)
    n = max(input.dim(), other.dim())
    a = input.reshape((1,) * (n - input.dim()) + tuple(input.shape))
    b = other.reshape((1,) * (n - other.dim()) + tuple(other.shape))
    a_shape = [s for size in a.shape for s in (size, 1)]
    b_shape = [s for size in b.shape for s in (1, size)]
    out = a.reshape(a_shape) * b.reshape(b_shape)
    return out.reshape([x * y for x, y in zip(a.shape, b.shape)])


def tensordot(a, b, dims=2, out=None):
    """Sums products over the last `dims` dims of a and the first of b, or over explicit lists."""
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        dims_a, dims_b = list(range(a.dim() - dims, a.dim())), list(range(dims))
    else:
        dims_a, dims_b = (_dims(d) for d in dims)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    dims_a = [d % a.dim() for d in dims_a]
    dims_b = [d % b.dim() for d in dims_b]
    for da, db in zip(dims_a, dims_b):
        if a.shape[da] != b.shape[db]:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {a.shape[da]} in dim {da} and "
                f"second has size {b.shape[db]} in dim {db}"
            )
    free_a = [d for d in range(a.dim()) if d not in dims_a]
    free_b = [d for d in range(b.dim()) if d not in dims_b]
    k = math.prod(a.shape[d] for d in dims_a)
    left = a.permute(*free_a, *dims_a).reshape(-1, k)
    right = b.permute(*dims_b, *free_b).reshape(k, -1)
    result = _C.mm(left, right).reshape([a.shape[d] for d in free_a] + [b.shape[d] for d in free_b])
    if out is None:
        return result
    if isinstance(out, _C.Tensor):
        tensordot_out("tensordot", [a, b], out, result)
    return write(out, result, [a, b], "tensordot")


def _moments(fname, input, dim, unbiased, keepdim, correction, is_std):
    """(spread, mean) for var_mean/std_mean, both outputs of one node. PyTorch's two spellings of
    the divisor: ``unbiased`` (a bool, also as the second positional argument) or ``correction``;
    neither means 1 (Bessel's correction), which the node shows as None when no dim was given."""
    if not input.is_floating_point():
        raise RuntimeError(f"{fname} only support floating point and complex dtypes")
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if correction is None and (unbiased is not None or dim is not None):
        correction = 1 if unbiased is None else int(bool(unbiased))
    if _transforms._open:  # a transform's wrappers take the composition of var (or std) and mean
        c = 1 if correction is None else correction
        spread = (input.std if is_std else input.var)(dim, correction=c, keepdim=keepdim)
        return spread, input.mean() if dim is None else input.mean(dim, keepdim=keepdim)
    return _C._var_mean(input, dim, correction, keepdim, is_std)


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(variance, mean) over dim (all elements when None); ``unbiased=False`` or
    ``correction=0`` divides by N instead of N - 1."""
    return _moments("var_mean", input, dim, unbiased, keepdim, correction, False)


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(standard deviation, mean) over dim (all elements when None); ``unbiased=False`` or
    ``correction=0`` divides by N instead of N - 1."""
    return _moments("std_mean", input, dim, unbiased, keepdim, correction, True)


def _without_nan(input):
    return _C.where(_C.isnan(input), _C.zeros_like(input), input)


@accepts_out(nansum_out)
def nansum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """The sum with NaNs counted as zero."""
    x = _without_nan(input) if input.is_floating_point() else input
    if dtype is None:
        return x.sum() if dim is None else x.sum(dim, keepdim=keepdim)
    x = x.to(dtype)  # summed in dtype, as PyTorch does, and returned in it (an int32 stays int32)
    return x.sum(dtype=dtype) if dim is None else x.sum(dim, keepdim=keepdim, dtype=dtype)


@accepts_out(nansum_out)
def nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """The mean of the non-NaN elements (NaN where all are NaN)."""
    if not input.is_floating_point():
        name = scalar_type_name(input.dtype)
        raise RuntimeError(
            f"nanmean(): expected input to have floating point or complex dtype but got {name}"
        )
    if dtype is not None and not dtype.is_floating_point:
        raise RuntimeError(
            "nanmean(): could not infer output dtype. Optional dtype must be either a floating "
            f"point or complex dtype. Got: {scalar_type_name(dtype)}"
        )
    input = input if dtype is None else input.to(dtype)  # computed in dtype, as PyTorch does
    count = (~_C.isnan(input)).to(input.dtype)
    total = nansum(input, dim, keepdim)
    return total / (count.sum() if dim is None else count.sum(dim, keepdim=keepdim))


@accepts_out(same_as_input)
def nan_to_num(input, nan=0.0, posinf=None, neginf=None, *, out=None):
    """NaN, +inf and -inf replaced (by 0 and the dtype's largest and lowest finite values)."""
    if not input.is_floating_point():
        return input.clone()
    from engine._dtype_info import finfo

    info = finfo(input.dtype)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    out = _C.where(_C.isnan(input), _C.full_like(input, nan), input)
    out = _C.where(out == math.inf, _C.full_like(input, posinf), out)
    return _C.where(out == -math.inf, _C.full_like(input, neginf), out)


@accepts_out()
def square(input, *, out=None):
    """``input * input`` (integers stay integers; bools give int64, as PyTorch's pow(input, 2))."""
    if input.is_floating_point():
        return input**2  # PyTorch's pow(input, 2): PowBackward0 saving the exponent
    x = input.to(_C.int64) if input.dtype == _C.bool else input
    return _grad_fn_names.name_grad_fn(x * x, "PowBackward0", (input,))


def rot90(input, k=1, dims=(0, 1)):
    """input rotated by 90 degrees k times in the plane of `dims`, from the first towards the second."""
    dims = list(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input.dim() < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {input.dim()}")
    d0, d1 = (d % input.dim() for d in dims)
    if d0 == d1:
        raise RuntimeError(
            f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}"
        )
    k %= 4
    if k == 1:
        return _grad_fn_names.name_grad_fn(
            input.flip(d1).transpose(d0, d1), "Rot90Backward0", (input,)
        )
    if k == 2:
        return _grad_fn_names.name_grad_fn(input.flip(d0).flip(d1), "Rot90Backward0", (input,))
    if k == 3:
        return _grad_fn_names.name_grad_fn(
            input.flip(d0).transpose(d0, d1), "Rot90Backward0", (input,)
        )
    return _grad_fn_names.name_grad_fn(input.clone(), "Rot90Backward0", (input,))


def _one_bound(fname, bound, value):
    """PyTorch's TypeError for a one-sided clamp given None as its bound."""
    if value is None:
        raise TypeError(
            f"{fname}() received an invalid combination of arguments - got (Tensor, NoneType), "
            f"but expected one of:\n * (Tensor input, Tensor {bound}, *, Tensor out = None)\n"
            f" * (Tensor input, Number {bound}, *, Tensor out = None)\n"
        )


def clamp_min(input, min):  # noqa: A002 - PyTorch's parameter name
    """``clamp(input, min=min)``."""
    _one_bound("clamp_min", "min", min)
    return _C.Tensor.clamp_min(input, min)  # the method names the node (ClampMinBackward0/1)


def clamp_max(input, max):  # noqa: A002 - PyTorch's parameter name
    """``clamp(input, max=max)``."""
    _one_bound("clamp_max", "max", max)
    return _C.Tensor.clamp_max(input, max)  # the method names the node (ClampMaxBackward0/1)


FUNCTIONS = {
    f.__name__: f
    for f in (
        addmm, addmv, baddbmm, addbmm, addcmul, addcdiv, trace, diff, tile, movedim, kron, tensordot,
        var_mean, std_mean, nansum, nanmean, nan_to_num, square, rot90,
        clamp_min, clamp_max,
    )
}  # fmt: skip
FUNCTIONS["moveaxis"] = movedim

# Tensor methods: the same functions with self as input (var_mean / std_mean / tensordot / kron
# are functions only in PyTorch).
METHODS = {k: v for k, v in FUNCTIONS.items() if k not in ("var_mean", "std_mean", "tensordot")}


def install():
    """Adds the Tensor methods (existing native methods of the same name are kept)."""
    for name, fn in METHODS.items():
        if not hasattr(_Tensor, name):
            setattr(_Tensor, name, fn)
