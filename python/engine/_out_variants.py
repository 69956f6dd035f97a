"""``out=`` on the torch.* functions whose native or composed forms take none: which functions,
under which dtype rule (engine/_out_rules.py), through the one wrapper of engine/_out_param.py;
and sum / mean, whose out= reduces in out's dtype. Each function is wrapped once at import.
Tensor methods are left as they are: they take no ``out``."""

from engine import _C, _out_rules
from engine._out_param import CPP_NAMES, can_cast, same_as_result, with_out, wraps_named, write
from engine._scalar_type_names import scalar_type_name


def _dtype_mismatch(dtype, out):
    return RuntimeError(
        f"Expected out tensor to have dtype {CPP_NAMES[dtype]}, but got "
        f"{CPP_NAMES[out.dtype]} instead"
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
        if not _has_dim(args, kwargs) and not can_cast(input.dtype, out.dtype):
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
    return write(out, result, [input], fname)


# name -> dtype rule, for the functions wrapped by install().
RULES = {
    "sort": same_as_result,
    "topk": same_as_result,
    "msort": same_as_result,
    "tril": same_as_result,
    "triu": same_as_result,
    "gather": same_as_result,
    "diag": same_as_result,
    "kthvalue": _out_rules.kthvalue_out,
    "cat": _out_rules.cat_out,
    "stack": _out_rules.cat_out,
    "where": _out_rules.where_out,
    "index_select": _out_rules.index_select_out,
    "take": _out_rules.take_out,
    "inner": _out_rules.inner_out,
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


# out's position in PyTorch's signatures of the native functions returning several tensors,
# which its message for a non-tensor in the out tuple names (sort's stable= overload says 4).
_OUT_POSITIONS = {"sort": 3, "topk": 5, "kthvalue": 4}


def install(namespace):
    """Replaces the functions of ``namespace`` (engine's globals) named in RULES by their
    out= taking forms; cat's aliases concat / concatenate follow cat."""
    for name, position in _OUT_POSITIONS.items():
        namespace[name].__out_position__ = position
    for name, rule in RULES.items():
        namespace[name] = with_out(namespace[name], rule)
    namespace["concat"] = namespace["concatenate"] = namespace["cat"]
    namespace["where"] = _where_tensors_only(namespace["where"])
    namespace["gather"] = _gather_sparse_grad(namespace["gather"])
    namespace["heaviside"] = _heaviside_same_dtypes(namespace["heaviside"])
