"""Random sampling beyond rand/randn/randint: bernoulli, multinomial, normal (all overloads),
poisson, binomial, randperm, and the in-place samplers bernoulli_, exponential_, geometric_,
log_normal_, cauchy_, random_.

Each is written with the engine's generator draws PyTorch's CPU kernels use, so after the same
manual_seed the streams agree with PyTorch's: bernoulli compares a uniform draw of the
probability's dtype with p (bernoulli_ with a number p draws float64); exponential_, geometric_ and
cauchy_ transform float64 uniforms exactly as PyTorch's distributions do; log_normal_ is exp of
the per-element float64 normal path (taken by filling a strided view); random_ and normal reuse
randint and normal_; multinomial uses PyTorch's exponential-keys-and-topk without replacement and
its cumulative binary search with replacement. randperm, poisson and binomial draw from NumPy
generators seeded by the engine generator, so they are reproducible under manual_seed but are
not PyTorch's streams."""

import math

from engine import _C, _transforms
from engine._composite_ops import _tensor_arg
from engine._joining import _broadcast_shape_of, _dtype_word

_Tensor = _C.Tensor


def _gen_kw(generator):
    return {} if generator is None else {"generator": generator}


def _uniform64(shape, generator):
    """float64 uniforms in [0, 1), one generator draw per element in row-major order."""
    return _C.rand(list(shape), dtype=_C.float64, **_gen_kw(generator))


def _numpy_rng(generator):
    """A NumPy generator seeded by two draws of the engine generator (reproducible under
    manual_seed, not PyTorch's stream)."""
    import numpy as np

    seed = _C.randint(0, 2**31 - 1, (2,), **_gen_kw(generator)).tolist()
    return np.random.default_rng(seed)


def _fill(self, values):
    """Copies values into self without recording a gradient, as PyTorch's samplers do."""
    from engine.autograd import no_grad

    with no_grad():
        self.copy_(values.to(self.dtype))
    return self


# ---- bernoulli ----


@_transforms.values_op
def bernoulli(input, p=None, *, generator=None, out=None):
    """0/1 samples, 1 with probability input (elementwise) or with probability p, in input's dtype."""
    _tensor_arg("bernoulli", input, "input", 1)
    if p is not None:
        return bernoulli_(_C.empty_like(input), p, generator=generator)
    if input.numel() and ((input < 0).any().item() or (input > 1).any().item()):
        raise RuntimeError(
            "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message "
            "be improved?  If so, please report an enhancement request to PyTorch.)"
        )
    probs = input.detach()
    draw_dtype = _C.float64 if probs.dtype == _C.float64 else _C.float32
    u = _C.rand(list(probs.shape), dtype=draw_dtype, **_gen_kw(generator))
    return (u < probs.to(draw_dtype)).to(input.dtype)


def bernoulli_(self, p=0.5, *, generator=None):
    """Fills self with 0/1 samples, 1 with probability p (a number or a broadcastable tensor)."""
    if isinstance(p, _Tensor):
        probs = p.detach().expand(list(self.shape)).contiguous()
        return _fill(self, bernoulli(probs, generator=generator))
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    return _fill(self, _uniform64(self.shape, generator) < p)


# ---- transforms of float64 uniforms ----


def exponential_(self, lambd=1.0, *, generator=None):
    """Fills self with Exponential(lambd) samples: ``-1 / lambd * log1p(-u)``."""
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
    u = _uniform64(self.shape, generator)
    return _fill(self, (-u).log1p() * (-1.0 / lambd))


def geometric_(self, p, *, generator=None):
    """Fills self with Geometric(p) samples (trials until the first success): ``ceil(log u / log1p(-p))``."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    u = _uniform64(self.shape, generator)
    return _fill(self, (u.log() / math.log1p(-p)).ceil())


def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    """Fills self with Cauchy(median, sigma) samples: ``median + sigma * tan(pi (u - 1/2))``."""
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
    u = _uniform64(self.shape, generator)
    return _fill(self, ((u - 0.5) * math.pi).tan() * sigma + median)


def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    """Fills self with samples whose logarithm is Normal(mean, std)."""
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
    # A strided float64 view takes the per-element normal path, the one PyTorch's log_normal_ uses.
    n = self.numel()
    z = _C.empty((n, 2), dtype=_C.float64).select(1, 0)
    z.normal_(mean, std, **_gen_kw(generator))
    return _fill(self, z.exp().reshape(list(self.shape)))


_RANDOM_FULL_RANGE = {_C.float32: 2**24 + 1, _C.float64: 2**53 + 1, _C.int32: 2**31}


def random_(self, from_=0, to=None, *, generator=None, **kwargs):
    """Fills self with integers uniform on [from, to - 1] (``random_(to)`` means [0, to - 1];
    no bounds: [0, 2**mantissa] for floats, [0, max] for integers)."""
    if "from" in kwargs:
        from_ = kwargs.pop("from")
    if kwargs:
        raise TypeError(f"random_() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if to is None and from_ != 0:
        from_, to = 0, from_
    if to is None:
        if self.dtype == _C.bool:
            to = 2
        elif self.dtype in _RANDOM_FULL_RANGE:
            to = _RANDOM_FULL_RANGE[self.dtype]
        else:
            to = 2**63 - 1  # PyTorch draws [0, 2**63 - 1]; engine's randint stops one short
    if from_ >= to:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={from_} >= to={to}"
        )
    dtype = _C.int64
    values = _C.randint(from_, to, list(self.shape), dtype=dtype, **_gen_kw(generator))
    return _fill(self, values)


# ---- normal ----


@_transforms.values_op
def normal(
    mean=0.0,
    std=1.0,
    size=None,
    *,
    generator=None,
    out=None,
    dtype=None,
    layout=None,
    device=None,
    pin_memory=False,
    requires_grad=False,
):
    """Normal samples: elementwise for tensor mean and/or std (broadcast), or of `size` for
    numbers. As in PyTorch, the samples carry no gradient to mean or std."""
    mean_t, std_t = isinstance(mean, _Tensor), isinstance(std, _Tensor)
    for arg, v in (("mean", mean), ("std", std)):
        if not isinstance(v, (_Tensor, int, float)) or isinstance(v, bool):
            raise TypeError(
                f"normal(): argument '{arg}' must be Tensor or float, not {type(v).__name__}"
            )
    if not mean_t and not std_t:
        if size is None:
            raise TypeError("normal() missing required argument 'size' (position 3)")
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
        out_t = _C.empty(list(size), dtype=dtype or _C.get_default_dtype())
        out_t.normal_(mean, std, **_gen_kw(generator))
        _C._autograd._unsafe_set_version_counter((out_t,), (0,))  # fresh, as PyTorch's
        return out_t.requires_grad_() if requires_grad else out_t
    if size is not None:
        raise TypeError("normal(): 'size' is only accepted when mean and std are numbers")
    if std_t and std.numel() and (std < 0).any().item():
        raise RuntimeError("normal expects all elements of std >= 0.0")
    if not std_t and std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    ref = mean if mean_t else std
    tensors = [t for t in (mean, std) if isinstance(t, _Tensor)]
    shape = _broadcast_shape_of(tensors)
    dtype = ref.dtype if len(tensors) == 1 else _C.result_type(mean, std)
    z = _C.empty(shape, dtype=dtype)
    z.normal_(0.0, 1.0, **_gen_kw(generator))
    m = mean.detach() if mean_t else mean
    s = std.detach() if std_t else std
    return z * s + m


# ---- multinomial ----


@_transforms.values_op
def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """Indices of num_samples categories drawn per row with probabilities proportional to input."""
    _tensor_arg("multinomial", input, "input", 1)
    if input.dim() not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.is_floating_point():
        raise RuntimeError(
            f"multinomial only supports floating-point dtypes for input, got: {_dtype_word(input.dtype)}"
        )
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    n = input.shape[-1]
    if not replacement and num_samples > n:
        raise RuntimeError(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement"
        )
    p = input.detach()
    if p.numel():
        bad = _C.isnan(p) | _C.isinf(p) | (p < 0)
        if bad.any().item():
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if (p.sum(-1) <= 0).any().item():
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    if not replacement or num_samples == 1:
        # Keys p / E with E ~ Exponential(1): the top num_samples keys are a draw without
        # replacement (PyTorch's algorithm and stream; PyTorch takes this path for a single
        # sample with replacement too, where both are the same draw).
        keys = p / exponential_(_C.empty_like(p), generator=generator)
        if num_samples == 1:
            return keys.argmax(-1, keepdim=True)
        return keys.topk(num_samples).indices
    rows = p.reshape(-1, n)
    cum = rows.to(_C.float64).cumsum(1).to(p.dtype)
    cum = cum / cum.narrow(1, n - 1, 1)
    u = _uniform64((rows.shape[0], num_samples), generator)
    from engine._histograms import searchsorted

    idx = searchsorted(cum.to(_C.float64), u).clamp(None, n - 1)
    return idx.reshape(list(p.shape[:-1]) + [num_samples])


# ---- NumPy-stream samplers ----


@_transforms.values_op
def poisson(input, generator=None):
    """Poisson samples with rates input (same dtype)."""
    _tensor_arg("poisson", input, "input", 1)
    rates = input.detach().numpy()
    if rates.size and (rates < 0).any():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    import numpy as np

    draws = np.asarray(_numpy_rng(generator).poisson(rates.astype(np.float64)), dtype=rates.dtype)
    return _C.from_numpy(np.ascontiguousarray(draws).reshape(rates.shape))


def binomial(count, prob, generator=None):
    """Binomial(count, prob) samples, elementwise (count and prob broadcast), as floats."""
    _tensor_arg("binomial", count, "count", 1)
    _tensor_arg("binomial", prob, "prob", 2)
    import numpy as np

    c, q = count.detach().numpy(), prob.detach().numpy()
    if q.size and ((q < 0) | (q > 1)).any():
        raise RuntimeError(
            "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message "
            "be improved?  If so, please report an enhancement request to PyTorch.)"
        )
    draws = _numpy_rng(generator).binomial(c.astype(np.int64), q.astype(np.float64))
    draws = np.asarray(draws, dtype=c.dtype)
    return _C.from_numpy(np.ascontiguousarray(draws).reshape(draws.shape))


def randperm(
    n,
    *,
    generator=None,
    out=None,
    dtype=None,
    layout=None,
    device=None,
    pin_memory=False,
    requires_grad=False,
):
    """A random permutation of 0..n-1 (int64 unless dtype is given)."""

    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    # PyTorch's CPU algorithm and draws: the same seed gives the same permutation and leaves the
    # generator where PyTorch leaves it.
    t = _C._randperm_stream(n, generator)
    dtype = dtype or _C.int64
    t = t if dtype == _C.int64 else t.to(dtype)
    return t.requires_grad_() if requires_grad else t


FUNCTIONS = {f.__name__: f for f in (bernoulli, multinomial, normal, poisson, binomial, randperm)}
METHODS = {
    "bernoulli": bernoulli,
    "multinomial": multinomial,
    "bernoulli_": bernoulli_,
    "exponential_": exponential_,
    "geometric_": geometric_,
    "log_normal_": log_normal_,
    "cauchy_": cauchy_,
    "random_": random_,
}


def install():
    """Adds the Tensor methods (existing native methods of the same name are kept)."""
    for name, fn in METHODS.items():
        if not hasattr(_Tensor, name):
            setattr(_Tensor, name, fn)
