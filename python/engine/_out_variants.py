"""``out=`` on the torch.* functions whose native or composed forms take none, with PyTorch 2.13's
dtype rule for each (the messages are PyTorch's own, which differ from op to op).

Each function is wrapped once at import: without ``out`` the call goes straight to the original,
so the common path costs one keyword check. With ``out`` the result is computed as usual, the
op's dtype rule is checked, and the result is written into ``out`` by the native writer, which
refuses out= where autograd would record and resizes a wrong-shaped ``out`` (with PyTorch's
warning when it had elements). Tensor methods are left as they are: they take no ``out``."""

from engine import _C
from engine._out_param import _CPP_NAMES, _write, wraps_named
from engine._out_param import same_as_result as _result_dtype_rule  # out has the result's dtype
from engine._scalar_type_names import scalar_type_name


def _flat_tensors(args, kwargs):
    """Every tensor among the arguments, looking one level into lists and tuples (cat's input)."""
    found = []
    for a in (*args, *kwargs.values()):
        if isinstance(a, _C.Tensor):
            found.append(a)
        elif isinstance(a, (list, tuple)):
            found.extend(t for t in a if isinstance(t, _C.Tensor))
    return found


def _can_cast(src, dst):
    """PyTorch's canCast: no floating point into an integer, nothing but bool into bool."""
    if src.is_floating_point and not dst.is_floating_point:
        return False
    return not (dst == _C.bool and src != _C.bool)


def _cat_rule(fname, inputs, out, result, field=None):
    if not _can_cast(result.dtype, out.dtype):
        raise TypeError(
            "torch.cat(): input types can't be cast to the desired output type "
            f"{scalar_type_name(out.dtype)}"
        )


def _where_rule(fname, inputs, out, result, field=None):
    if out.dtype != result.dtype:
        raise RuntimeError(
            f"Expected out type to be {scalar_type_name(result.dtype)} but got "
            f"{scalar_type_name(out.dtype)}"
        )


def _index_select_rule(fname, inputs, out, result, field=None):
    if out.dtype != result.dtype:
        raise RuntimeError("index_select(): self and result must have the same scalar type")


def _take_rule(fname, inputs, out, result, field=None):
    if out.dtype != result.dtype:
        raise RuntimeError(
            "take(): self and out expected to have the same dtype, but got self.dtype = "
            f"{scalar_type_name(result.dtype)} and out.dtype = {scalar_type_name(out.dtype)}"
        )


def _kthvalue_rule(fname, inputs, out, result, field=None):
    if field == "values" and out.dtype != result.dtype:
        raise RuntimeError("output values must be of same type as input")
    if field == "indices" and out.dtype != _C.int64:
        raise RuntimeError("output indices must be of scalar type Long")


def _inner_rule(fname, inputs, out, result, field=None):
    # inner is tensordot's unless a factor is 0-d (then mul's, which casts).
    if any(t.dim() == 0 for t in inputs):
        if not _can_cast(result.dtype, out.dtype):
            raise RuntimeError(
                f"result type {scalar_type_name(result.dtype)} can't be cast to the desired "
                f"output type {scalar_type_name(out.dtype)}"
            )
    elif out.dtype != result.dtype:
        raise RuntimeError(
            "tensordot: Expected the output tensor to have dtype "
            f"{scalar_type_name(result.dtype)}, but got an output tensor with dtype "
            f"{scalar_type_name(out.dtype)}"
        )


def with_out(fn, rule, fname=None):
    """``fn`` taking ``out=`` (a tensor, or a tuple of tensors where ``fn`` returns a named
    tuple), checked by ``rule(fname, inputs, out, result[, field])``."""
    name = fname or fn.__name__

    @wraps_named(fn)
    def wrapped(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        result = fn(*args, **kwargs)
        inputs = _flat_tensors(args, kwargs)
        if isinstance(result, tuple):
            if not isinstance(out, (tuple, list)) or len(out) != len(result):
                raise TypeError(
                    f"{name}(): argument 'out' must be tuple of Tensors, not {type(out).__name__}"
                )
            for field, o, r in zip(result._fields, out, result):
                if not isinstance(o, _C.Tensor):
                    raise TypeError(
                        f"{name}(): argument 'out' must be tuple of Tensors, not {type(o).__name__}"
                    )
                rule(name, inputs, o, r, field)
            return type(result)(*(_write(o, r, inputs, name) for o, r in zip(out, result)))
        if not isinstance(out, _C.Tensor):
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
        rule(name, inputs, out, result)
        return _write(out, result, inputs, name)

    return wrapped


def _dtype_mismatch(dtype, out):
    return RuntimeError(
        f"Expected out tensor to have dtype {_CPP_NAMES[dtype]}, but got "
        f"{_CPP_NAMES[out.dtype]} instead"
    )


def _has_dim(args, kwargs):
    return bool(args) or "dim" in kwargs


def reduce_into(fname, input, args, kwargs, out):
    """sum / mean with ``out``: PyTorch reduces in out's dtype (or refuses a ``dtype=`` that
    differs from it); mean also refuses an integer input and an integer out."""
    if not isinstance(out, _C.Tensor):
        raise TypeError(f"{fname}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if fname == "sum" and not _has_dim(args, kwargs):
        # PyTorch has no sum(input, *, out) overload: only the one with a dim.
        raise TypeError(
            "sum() received an invalid combination of arguments - got (Tensor, out=Tensor), "
            "but expected one of:\n * (Tensor input, *, torch.dtype dtype = None)\n"
            " * (Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = "
            "None, Tensor out = None)"
        )
    dtype = kwargs.pop("dtype", None)
    if dtype is not None and dtype != out.dtype:
        raise _dtype_mismatch(dtype, out)
    if fname == "mean" and dtype is None:
        if not _has_dim(args, kwargs) and not _can_cast(input.dtype, out.dtype):
            # mean(input, *, out) is the overload mean.dtype_out, which checks the cast first.
            raise RuntimeError(
                "mean.dtype_out(): input types can't be cast to the desired output type "
                f"{scalar_type_name(out.dtype)}"
            )
        if not input.dtype.is_floating_point:
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {scalar_type_name(input.dtype)}"
            )
        if not out.dtype.is_floating_point:
            raise RuntimeError(
                f"result type {scalar_type_name(input.dtype)} can't be cast to the desired "
                f"output type {scalar_type_name(out.dtype)}"
            )
    method = getattr(input, fname)
    result = method(*args, dtype=out.dtype, **kwargs)
    return _write(out, result, [input], fname)


# name -> dtype rule, for the functions wrapped by install().
RULES = {
    "sort": _result_dtype_rule,
    "topk": _result_dtype_rule,
    "msort": _result_dtype_rule,
    "tril": _result_dtype_rule,
    "triu": _result_dtype_rule,
    "gather": _result_dtype_rule,
    "diag": _result_dtype_rule,
    "kthvalue": _kthvalue_rule,
    "cat": _cat_rule,
    "stack": _cat_rule,
    "where": _where_rule,
    "index_select": _index_select_rule,
    "take": _take_rule,
    "inner": _inner_rule,
}


def _where_tensors_only(where):
    """PyTorch's where has out= only in its all-tensor overload: a Python number as ``input``
    or ``other`` is refused there."""

    @wraps_named(where)
    def checked(condition, *args, out=None, **kwargs):
        if out is not None:
            for position, (name, value) in enumerate(zip(("input", "other"), args), 2):
                if not isinstance(value, _C.Tensor):
                    raise TypeError(
                        f"where(): argument '{name}' (position {position}) must be Tensor, not "
                        f"{type(value).__name__}"
                    )
        return where(condition, *args, out=out, **kwargs)

    return checked


def _gather_sparse_grad(gather):
    """gather's ``sparse_grad`` keyword: only its default (dense gradients) exists here."""

    @wraps_named(gather)
    def gather_(input, dim, index, *, sparse_grad=False, out=None):
        if sparse_grad:
            raise NotImplementedError("gather(): sparse_grad=True is not supported")
        return gather(input, dim, index, out=out)

    return gather_


def _heaviside_same_dtypes(heaviside):
    """PyTorch's heaviside wants one dtype for input, values and out alike."""

    @wraps_named(heaviside)
    def checked(input, values, *, out=None):
        if isinstance(out, _C.Tensor) and isinstance(input, _C.Tensor) and out.dtype != input.dtype:
            raise RuntimeError(
                "heaviside is not yet implemented for tensors with different dtypes."
            )
        return heaviside(input, values, out=out)

    return checked


def install(namespace):
    """Replaces the functions of ``namespace`` (engine's globals) named in RULES by their
    out= taking forms; cat's aliases concat / concatenate follow cat."""
    for name, rule in RULES.items():
        namespace[name] = with_out(namespace[name], rule)
    namespace["concat"] = namespace["concatenate"] = namespace["cat"]
    namespace["where"] = _where_tensors_only(namespace["where"])
    namespace["gather"] = _gather_sparse_grad(namespace["gather"])
    namespace["heaviside"] = _heaviside_same_dtypes(namespace["heaviside"])
