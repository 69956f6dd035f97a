"""engine: a compiled autograd engine with PyTorch's tensor and autograd.Function API.

Port a PyTorch script by changing one line: ``import engine as torch``.
"""

import os as _os

# OpenBLAS's idle threads spin for 2^28 cycles (about 0.1 s) after each wake-up before they sleep.
# On a 2-core machine that spinning thread holds the core engine's own worker needs: a 256^3 float32
# product ran on one core, at half its speed, for the first tens of milliseconds after each wake-up.
# 2^20 cycles (under a millisecond) still bridges the back-to-back calls inside a LAPACK routine.
# Read when the library loads, so set before engine._C is imported; a value the user set wins.
_os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "20")

import gc as _gc  # noqa: E402

# The import creates tens of thousands of objects and no garbage cycles; the collector's passes
# over them took a tenth of its time (2 ms). Switched back on at the end of this file.
_gc_was_enabled = _gc.isenabled()
_gc.disable()

from engine import (  # noqa: E402
    _C,
    _lazy,
    _out_variants,
    autograd,
    backends,
    cuda,
    return_types,
    testing,
)
from engine._C import (
    Generator,
    OutOfMemoryError,
    Tensor,
    abs,
    acos,
    add,
    all,
    amax,
    amin,
    any,
    arange,
    argmax,
    argmin,
    asin,
    atan,
    atan2,
    bitwise_and,
    bitwise_left_shift,
    bitwise_not,
    bitwise_or,
    bitwise_right_shift,
    bitwise_xor,
    bmm,
    can_cast,
    ceil,
    clamp,
    clip,
    clone,
    cos,
    cosh,
    cumprod,
    cumsum,
    default_generator,
    detach,
    div,
    dot,
    dtype,
    empty,
    empty_like,
    eq,
    erf,
    exp,
    exp2,
    expm1,
    floor,
    floor_divide,
    fmod,
    full,
    full_like,
    ge,
    get_default_dtype,
    get_num_threads,
    gt,
    is_anomaly_enabled,
    is_grad_enabled,
    is_tensor,
    isfinite,
    isinf,
    isnan,
    le,
    lerp,
    linspace,
    log,
    log1p,
    log2,
    log10,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    logsumexp,
    lt,
    matmul,
    max,
    maximum,
    min,
    minimum,
    mm,
    mul,
    mv,
    ne,
    neg,
    norm,
    numel,
    ones,
    ones_like,
    outer,
    permute,
    pow,
    prod,
    promote_types,
    rand,
    randint,
    randn,
    reciprocal,
    relu,
    remainder,
    reshape,
    result_type,
    round,
    rsqrt,
    select,
    set_default_dtype,
    set_num_threads,
    sgn,
    sigmoid,
    sign,
    sin,
    sinh,
    sqrt,
    squeeze,
    std,
    sub,
    t,
    tan,
    tanh,
    tensor,
    transpose,
    trunc,
    unsqueeze,
    var,
    where,
    zeros,
    zeros_like,
)
from engine._comparison import allclose, equal, isclose
from engine._creation import as_tensor, eye, rand_like, randint_like, randn_like
from engine._device import device
from engine._dtype_info import finfo, iinfo
from engine._einsum import einsum
from engine._legacy_tensors import (
    BFloat16Tensor,
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
)
from engine._memory_format import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    memory_format,
    preserve_format,
)
from engine._memory_format import clone_function as clone  # noqa: F811 (memory_format-aware)
from engine._memory_format import install as _install_memory_formats
from engine._tensor import Size
from engine._tensor_str import set_printoptions
from engine.autograd import (
    Function,
    enable_grad,
    inference_mode,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)

# dtype objects and PyTorch's aliases for them; assigned here because several shadow builtins.
globals().update(
    {
        "float32": _C.float32,
        "float": _C.float32,
        "float64": _C.float64,
        "double": _C.float64,
        "int64": _C.int64,
        "long": _C.int64,
        "int32": _C.int32,
        "int": _C.int32,
        "bool": _C.bool,
        "float16": _C.float16,
        "half": _C.float16,
        "bfloat16": _C.bfloat16,
        "uint8": _C.uint8,
        "int8": _C.int8,
        "int16": _C.int16,
        "short": _C.int16,
    }
)
from engine import _complex  # noqa: E402

globals().update(_complex.DTYPES)

import math as _math  # noqa: E402

pi, e, inf, nan = _math.pi, _math.e, _math.inf, _math.nan

subtract = sub
multiply = mul
divide = div
true_divide = div
negative = neg
absolute = abs
arcsin = asin
arccos = acos
arctan = atan
arctan2 = atan2
fix = trunc
ger = outer


def sum(input, *args, out=None, **kwargs):
    """Sum of all elements, or over ``dim`` (int or tuple), like ``torch.sum``; with ``out``
    (which needs a ``dim``) the sum is taken in out's dtype."""
    if out is None:
        return input.sum(*args, **kwargs)
    return _out_variants.reduce_into("sum", input, args, kwargs, out)


def mean(input, *args, out=None, **kwargs):
    """Mean of all elements, or over ``dim`` (int or tuple), like ``torch.mean``; with ``out``
    the mean is taken in out's dtype."""
    if out is None:
        return input.mean(*args, **kwargs)
    return _out_variants.reduce_into("mean", input, args, kwargs, out)


from engine._global_settings import (  # noqa: E402
    are_deterministic_algorithms_enabled,
    get_default_device,
    get_deterministic_debug_mode,
    get_float32_matmul_precision,
    is_deterministic_algorithms_warn_only_enabled,
    set_default_device,
    set_default_tensor_type,
    set_deterministic_debug_mode,
    set_float32_matmul_precision,
    use_deterministic_algorithms,
)
from engine.compiler import compile  # noqa: E402
from engine.random import (  # noqa: E402
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)


def is_floating_point(input):
    return input.is_floating_point()


# ---- indexing, views, joining and engine.nn (see _indexing.py, _shape_ops.py, nn/) ----
from engine import _composite_ops, _creation, _indexing, _shape_ops, _sorting  # noqa: E402
from engine._C import (  # noqa: E402
    as_strided,
    cat,
    diagonal,
    from_numpy,
    gather,
    index_add,
    index_copy,
    index_select,
    narrow,
    scatter,
    scatter_add,
    stack,
)
from engine._shape_ops import (  # noqa: E402
    broadcast_to,
    chunk,
    diag,
    flatten,
    flip,
    masked_fill,
    roll,
    split,
    take,
    tril,
    triu,
    unbind,
    unflatten,
)

concat = concatenate = cat
_shape_ops.install()
_creation.install(_C.Tensor)
_composite_ops.install()
globals().update(_composite_ops.FUNCTIONS)
_sorting.install()
globals().update(_sorting.FUNCTIONS)
from engine import _linalg_torch, linalg  # noqa: E402

_linalg_torch.install()
globals().update(_linalg_torch.FUNCTIONS)
# Families composed from native ops; each module lists its torch.* functions and installs its
# Tensor methods. After linalg's names: dist / cdist / vander here are the fuller versions
# (zero-distance subgradient, compute_mode and dtype checks).
from engine import (  # noqa: E402
    _complex,
    _composed_misc,
    _copies,
    _creation_extra,
    _histograms,
    _joining,
    _random_extra,
    _real_conj,
    _scans,
    _scatter_ops,
    _spectral,
    _statistics,
    _tensor_misc,
    _windows,
)

for _family in (
    _joining, _scatter_ops, _scans, _histograms, _statistics, _creation_extra, _windows,
    _random_extra, _copies, _tensor_misc, _composed_misc, _real_conj, _complex,
    _spectral,
):  # fmt: skip
    _family.install()
    globals().update(_family.FUNCTIONS)
del _family
_C.Tensor.__getitem__ = _indexing.getitem
_C.Tensor.__setitem__ = _indexing.setitem
_install_memory_formats()
from engine import amp  # noqa: E402
from engine.amp import autocast  # noqa: E402

convolution = _C.convolution
__version__ = "0.1.0"

# torch.* forms of nn.functional entries (engine/nn/_torch_functions.py) and the nn-flavoured
# Tensor methods (softmax, log_softmax, hardshrink, prelu); those defined in other files of
# engine.nn load on first use (_NN_FUNCTIONS below). Importing this file runs
# engine/nn/__init__.py, which imports nothing until a name is used.
from engine.nn import _torch_functions  # noqa: E402

_torch_functions.install_own(globals(), _C.Tensor)

# ---- special functions, less common pointwise ops, in-place variants and aliases ----
from engine import _method_aliases  # noqa: E402
from engine._C import (  # noqa: E402
    acosh,
    asinh,
    atanh,
    copysign,
    deg2rad,
    digamma,
    erfc,
    erfinv,
    fmax,
    fmin,
    frac,
    frexp,
    gcd,
    heaviside,
    hypot,
    i0,
    igamma,
    igammac,
    lcm,
    lgamma,
    logaddexp,
    logaddexp2,
    logit,
    nextafter,
    polygamma,
    rad2deg,
    signbit,
    sinc,
    xlogy,
)

_method_aliases.install(globals())

from engine import _division  # noqa: E402

_division.install(globals())

from engine import _rnn_cells  # noqa: E402

_rnn_cells.install(globals())


# engine.save / engine.load: PyTorch's zip checkpoint format (engine/serialization.py), imported
# on first use so that `import engine` does not import NumPy.
def save(
    obj,
    f,
    pickle_module=None,
    pickle_protocol=2,
    _use_new_zipfile_serialization=True,
    _disable_byteorder_record=False,
):
    """Saves ``obj`` (tensors, state dicts, containers of them) to the path or file ``f`` in
    PyTorch's zip checkpoint format: see :func:`engine.serialization.save`."""
    import pickle

    from engine import serialization

    return serialization.save(
        obj,
        f,
        pickle if pickle_module is None else pickle_module,
        pickle_protocol,
        _use_new_zipfile_serialization,
        _disable_byteorder_record,
    )


def load(
    f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args
):
    """Loads what :func:`save` (or ``torch.save``) wrote: see :func:`engine.serialization.load`."""
    from engine import serialization

    return serialization.load(
        f, map_location, pickle_module, weights_only=weights_only, mmap=mmap, **pickle_load_args
    )


# torch.* names implemented in engine.nn, which loads on first use: the convolution, pooling and
# shuffle functions (torch.adaptive_max_pool1d always returns (values, indices)) and the torch.*
# forms of dropout, ctc_loss and embedding_bag. tests/test_import_time.py checks this table
# against engine.nn's.
def _lazy_names(module, names, prefix=""):
    return {name: (module, prefix + name) for name in names.split()}


_NN_FUNCTIONS = {
    **_lazy_names(
        "engine.nn._conv",
        "conv1d conv2d conv3d conv_transpose1d conv_transpose2d conv_transpose3d conv_tbc",
    ),
    **_lazy_names(
        "engine.nn._pooling",
        "avg_pool1d adaptive_avg_pool1d max_pool1d max_pool2d max_pool3d max_pool1d_with_indices",
    ),
    "adaptive_max_pool1d": ("engine.nn._pooling", "adaptive_max_pool1d_with_indices"),
    **_lazy_names(
        "engine.nn._sampling",
        "pixel_shuffle pixel_unshuffle channel_shuffle native_channel_shuffle grid_sampler"
        " affine_grid_generator",
    ),
    **_lazy_names(
        "engine.nn._dropout",
        "dropout dropout_ feature_dropout feature_dropout_ alpha_dropout alpha_dropout_"
        " feature_alpha_dropout feature_alpha_dropout_",
        prefix="torch_",
    ),
    "ctc_loss": ("engine.nn._ctc", "torch_ctc_loss"),
    "embedding_bag": ("engine.nn._embedding_bag", "torch_embedding_bag"),
}
del _lazy_names

# Submodules load when first named (engine.optim.Adam, engine.serialization.add_safe_globals):
# import engine pays only for what every script uses. engine.vmap is engine.func.vmap.
__getattr__, __dir__ = _lazy.attach(
    __name__,
    submodules=(
        "serialization func distributed viz jit compiler version multiprocessing overrides optim"
        " distributions special nn utils sparse cpu fft"
    ).split(),
    attributes={
        **_NN_FUNCTIONS,
        "vmap": ("engine.func", "vmap"),
        # sparse COO tensors (engine/_sparse)
        "sparse_coo_tensor": ("engine._sparse", "sparse_coo_tensor"),
        "spmm": ("engine._sparse", "spmm"),
        "sparse_coo": ("engine._sparse", "sparse_coo"),
        # autocast's state, as torch.* reads it (engine/amp)
        **{
            name: ("engine.amp", name)
            for name in (
                "is_autocast_enabled",
                "get_autocast_dtype",
                "is_autocast_cpu_enabled",
                "get_autocast_cpu_dtype",
                "get_autocast_gpu_dtype",
                "set_autocast_enabled",
                "set_autocast_dtype",
                "is_autocast_cache_enabled",
                "set_autocast_cache_enabled",
                "clear_autocast_cache",
                "autocast_increment_nesting",
                "autocast_decrement_nesting",
            )
        },
    },
)
_lazy_getattr = __getattr__


def __getattr__(name):
    # No 32-bit complex dtype: naming one raises a clear AttributeError (engine/_complex.py).
    if name in _complex.UNSUPPORTED:
        raise _complex.unsupported_dtype(name)
    return _lazy_getattr(name)


# Storages (engine/storage.py).
from engine import storage as _storage  # noqa: E402

# DLPack exchange (engine/_dlpack.py, which adds Tensor.__dlpack__ and __dlpack_device__).
from engine._dlpack import from_dlpack  # noqa: E402
from engine.storage import TypedStorage, UntypedStorage  # noqa: E402

_storage.install(_C.Tensor)  # Tensor.untyped_storage(), storage(), set_(storage, ...)

# Factories written in Python create on the meta device too (engine/_meta_dispatch.py).
from engine import _meta_dispatch  # noqa: E402

for _name in ("randperm", "logspace", "empty_strided", "normal", "scalar_tensor", "eye", "as_tensor",
              "asarray", "range", "tril_indices", "triu_indices", "hann_window", "hamming_window",
              "blackman_window", "bartlett_window", "kaiser_window"):  # fmt: skip
    globals()[_name] = _meta_dispatch.on_default_device(globals()[_name])
for _name in ("rand_like", "randn_like", "randint_like"):
    globals()[_name] = _meta_dispatch.on_default_device(globals()[_name], follows_input=True)
for _name in ("new", "new_tensor", "new_zeros", "new_ones", "new_empty", "new_full"):
    setattr(_C.Tensor, _name, _meta_dispatch.on_default_device(getattr(_C.Tensor, _name), True))
del _name

# Docstrings of the public names (engine/_docs), attached once every name above exists.
from engine._docs import apply as _apply_docs  # noqa: E402

_apply_docs()

# out= on the torch.* functions whose first forms take none (engine/_out_variants.py); after the
# docstrings, which the out= forms carry over from the functions they wrap (Tensor methods among them).
_out_variants.install(globals())

# Last, once every function and method is in place: those without a complex path refuse one.
_complex.guard_functions(globals())

if _gc_was_enabled:
    _gc.enable()
del _gc_was_enabled
