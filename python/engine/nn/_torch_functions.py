"""The torch.* forms of nn.functional entries (torch.dropout, torch.batch_norm, torch.kl_div, ...)
with PyTorch's torch-level signatures: their own argument orders, reductions given as integers
(0 none, 1 mean, 2 sum), no legacy flags. Each calls the nn.functional implementation.
Where ATen declares ``reduction=Mean``, PyTorch's Python binding in fact defaults to 0 (none):
``torch.kl_div(a, b)`` is unreduced, and so it is here.

install() adds them to the engine namespace and the nn-flavoured Tensor methods (softmax,
log_softmax, hardshrink, prelu) to Tensor, leaving any name already defined there alone;
install_own() leaves out those of the files it would import (``import engine`` loads them lazily)."""

from engine import _C
from engine._out_param import accepts_out, same_as_result
from engine.amp._policy import autocast_op

_REDUCTION_NAMES = {0: "none", 1: "mean", 2: "sum"}


def _F():
    from engine.nn import functional

    return functional


def _reduction(reduction):
    if reduction not in _REDUCTION_NAMES:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _REDUCTION_NAMES[reduction]


def relu_(input):
    """In-place ``relu``."""
    return _F().relu_(input)


def celu(input, alpha=1.0):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    return _F().celu(input, alpha)


def celu_(input, alpha=1.0):
    """In-place ``celu``."""
    return _F().celu_(input, alpha)


def selu(input):
    """``scale * elu(x, alpha)`` with the self-normalising constants."""
    return _F().selu(input)


def selu_(input):
    """In-place ``selu``."""
    return _F().selu_(input)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    """Randomized leaky ReLU (see ``nn.functional.rrelu``), slopes drawn from generator."""
    from engine.nn._activations_extra import _rrelu

    return _rrelu(input, lower, upper, training, False, generator)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    """In-place ``rrelu``."""
    from engine.nn._activations_extra import _rrelu

    return _rrelu(input, lower, upper, training, True, generator)


def threshold(input, threshold, value):
    """value where ``x <= threshold``, x elsewhere."""
    return _F().threshold(input, threshold, value)


def threshold_(input, threshold, value):
    """In-place ``threshold``."""
    return _F().threshold_(input, threshold, value)


def hardshrink(input, lambd=0.5):
    """0 where ``|x| <= lambd``, x elsewhere."""
    return _F().hardshrink(input, lambd)


@autocast_op("prelu")
def prelu(input, weight):
    """x for x > 0, ``weight * x`` otherwise (weight per channel or shared)."""
    return _F().prelu(input, weight)


@accepts_out(same_as_result)
def softmax(input, dim, *, dtype=None, out=None):
    """``exp(x) / sum(exp(x))`` along dim."""
    return _F().softmax(input, dim, dtype=dtype)


@accepts_out(same_as_result)
def log_softmax(input, dim, dtype=None, *, out=None):
    """``x - logsumexp(x)`` along dim."""
    return _F().log_softmax(input, dim, dtype=dtype)


@autocast_op("bilinear")
def bilinear(input1, input2, weight, bias=None):
    """``x1^T A x2 + b`` (see ``nn.functional.bilinear``)."""
    return _F().bilinear(input1, input2, weight, bias)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
               cudnn_enabled):  # fmt: skip
    """``nn.functional.batch_norm`` with ATen's argument order."""
    return _F().batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                  cudnn_enabled):  # fmt: skip
    """``nn.functional.instance_norm`` with ATen's argument order."""
    return _F().instance_norm(
        input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps
    )


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True):
    """Normalises over the trailing normalized_shape dims."""
    return _F().layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5, cudnn_enabled=True):
    """Normalises each group of channels of each sample."""
    return _F().group_norm(input, num_groups, weight, bias, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """``x / sqrt(mean(x**2) + eps) * weight`` over the trailing dims."""
    return _F().rms_norm(input, normalized_shape, weight, eps)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """Rows of weight selected by indices (ATen's argument order; padding_idx -1 is none)."""
    pad = None if padding_idx == -1 else padding_idx
    return _F().embedding(indices, weight, pad, None, 2.0, scale_grad_by_freq, sparse)


def embedding_renorm_(input, indices, max_norm, norm_type):
    """Rescales, in place, the rows of input selected by indices whose norm exceeds max_norm."""
    from engine.nn._embedding_bag import _renorm_rows

    _renorm_rows(input, indices.reshape(-1).to(_C.int64), max_norm, norm_type)
    return input


@autocast_op("kl_div")
def kl_div(input, target, reduction=0, *, log_target=False):
    """``nn.functional.kl_div`` with an integer reduction ('mean' is the plain mean)."""
    name = _reduction(reduction)
    loss = _F().kl_div(input, target, reduction="none", log_target=log_target)
    return _F()._reduce(loss, name)


@autocast_op("poisson_nll_loss")
def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    """``nn.functional.poisson_nll_loss`` with every argument positional."""
    return _F().poisson_nll_loss(
        input, target, log_input, full, eps=eps, reduction=_reduction(reduction)
    )


@autocast_op("cosine_embedding_loss")
def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    """``nn.functional.cosine_embedding_loss`` with an integer reduction."""
    return _F().cosine_embedding_loss(
        input1, input2, target, margin, reduction=_reduction(reduction)
    )


@autocast_op("hinge_embedding_loss")
def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    """``nn.functional.hinge_embedding_loss`` with an integer reduction."""
    return _F().hinge_embedding_loss(input, target, margin, reduction=_reduction(reduction))


@autocast_op("margin_ranking_loss")
def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    """``nn.functional.margin_ranking_loss`` with an integer reduction."""
    return _F().margin_ranking_loss(input1, input2, target, margin, reduction=_reduction(reduction))


@autocast_op("triplet_margin_loss")
def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-6, swap=False,
                        reduction=0):  # fmt: skip
    """``nn.functional.triplet_margin_loss`` with an integer reduction."""
    return _F().triplet_margin_loss(
        anchor, positive, negative, margin, p, eps, swap, reduction=_reduction(reduction)
    )


@autocast_op("binary_cross_entropy_with_logits")
def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    """``nn.functional.binary_cross_entropy_with_logits`` with an integer reduction."""
    return _F().binary_cross_entropy_with_logits(
        input, target, weight, reduction=_reduction(reduction), pos_weight=pos_weight
    )


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """Cosine of the angle between x1 and x2 along dim."""
    return _F().cosine_similarity(x1, x2, dim, eps)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """p-norm of ``x1 - x2 + eps`` along the last dim."""
    return _F().pairwise_distance(x1, x2, p, eps, keepdim)


def _tensor_softmax(self, dim, dtype=None):
    """Softmax along ``dim``: ``exp(x) / exp(x).sum(dim, keepdim=True)``, computed stably (see
    :func:`engine.nn.functional.softmax`).

    Args:
        dim (int): the dimension normalised.
        dtype (engine.dtype, optional): the dtype the tensor is cast to first.

    Example::

        >>> engine.tensor([0.0, 0.0]).softmax(0)
        tensor([0.5000, 0.5000])
    """
    return _F().softmax(self, dim, dtype=dtype)


def _tensor_log_softmax(self, dim, dtype=None):
    """Logarithm of the softmax along ``dim``, ``x - logsumexp(x, dim)`` (see
    :func:`engine.nn.functional.log_softmax`).

    Args:
        dim (int): the dimension normalised.
        dtype (engine.dtype, optional): the dtype the tensor is cast to first.

    Example::

        >>> engine.tensor([0.0, 0.0]).log_softmax(0)
        tensor([-0.6931, -0.6931])
    """
    return _F().log_softmax(self, dim, dtype=dtype)


def _own_functions():
    """The torch.* forms defined in this file."""
    return {
        f.__name__: f
        for f in (
            relu_, celu, celu_, selu, selu_, rrelu, rrelu_, threshold, threshold_, hardshrink, prelu,
            softmax, log_softmax, bilinear, batch_norm, instance_norm, layer_norm, group_norm,
            rms_norm, embedding, embedding_renorm_, kl_div, poisson_nll_loss, cosine_embedding_loss,
            hinge_embedding_loss, margin_ranking_loss, triplet_margin_loss,
            binary_cross_entropy_with_logits, cosine_similarity, pairwise_distance,
        )
    }  # fmt: skip


def _functions():
    from engine.nn import _ctc, _dropout, _embedding_bag

    table = _own_functions()
    for module in (_dropout, _ctc, _embedding_bag):
        table.update(module.TORCH_FUNCTIONS)
    return table


def install(namespace, tensor_type):
    """Adds the torch.* forms to namespace and the Tensor methods to tensor_type, keeping any
    name already there."""
    for name, fn in _functions().items():
        namespace.setdefault(name, fn)
    install_own(namespace, tensor_type)


def install_own(namespace, tensor_type):
    """Adds the torch.* forms defined in this file and the Tensor methods, keeping any name
    already there: ``import engine`` calls this, and reaches those of _dropout, _ctc and
    _embedding_bag lazily."""
    for name, fn in _own_functions().items():
        namespace.setdefault(name, fn)
    methods = {
        "softmax": _tensor_softmax,
        "log_softmax": _tensor_log_softmax,
        "hardshrink": hardshrink,
        "prelu": prelu,
    }
    for name, fn in methods.items():
        if not hasattr(tensor_type, name):
            setattr(tensor_type, name, fn)
