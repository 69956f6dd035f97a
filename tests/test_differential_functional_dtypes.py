"""nn.functional refuses integer and bool inputs where PyTorch 2.13 does, with its exception
type and message (its kernels exist only for floating-point dtypes, while engine composes these
functions from ops that would promote an integer input). The messages were recorded from
PyTorch 2.13; the live test compares with torch itself when it imports."""

import engine
import engine.nn.functional as EF
import pytest

DTYPES = ("int64", "int32", "uint8", "bool", "float16", "bfloat16")

CASES = {
    "elu": lambda F, L, x: F.elu(x),
    "selu": lambda F, L, x: F.selu(x),
    "celu": lambda F, L, x: F.celu(x),
    "gelu": lambda F, L, x: F.gelu(x),
    "gelu_tanh": lambda F, L, x: F.gelu(x, approximate="tanh"),
    "silu": lambda F, L, x: F.silu(x),
    "mish": lambda F, L, x: F.mish(x),
    "softplus": lambda F, L, x: F.softplus(x),
    "hardsigmoid": lambda F, L, x: F.hardsigmoid(x),
    "hardswish": lambda F, L, x: F.hardswish(x),
    "hardshrink": lambda F, L, x: F.hardshrink(x),
    "softshrink": lambda F, L, x: F.softshrink(x),
    "leaky_relu": lambda F, L, x: F.leaky_relu(x, 0.2),
    "logsigmoid": lambda F, L, x: F.logsigmoid(x),
    "threshold": lambda F, L, x: F.threshold(x, 0.5, 1.0),
    "glu": lambda F, L, x: F.glu(x, -1),
    "normalize": lambda F, L, x: F.normalize(x, dim=0),
    "layer_norm": lambda F, L, x: F.layer_norm(x, (4,)),
    "rms_norm": lambda F, L, x: F.rms_norm(x, (4,)),
    "group_norm": lambda F, L, x: F.group_norm(x.unsqueeze(0), 1),
    "pad_reflect": lambda F, L, x: F.pad(x.unsqueeze(0), (1, 2), mode="reflect"),
    "pad_replicate_2d": lambda F, L, x: F.pad(x.unsqueeze(0), (1, 1, 1, 1), mode="replicate"),
    "mse_loss": lambda F, L, x: F.mse_loss(x, x.flip(0)),
    "smooth_l1_loss": lambda F, L, x: F.smooth_l1_loss(x, x.flip(0)),
    "huber_loss": lambda F, L, x: F.huber_loss(x, x.flip(0)),
    "nll_loss": lambda F, L, x: F.nll_loss(x, L.tensor([0, 1, 3])),
    "nll_loss_3d": lambda F, L, x: F.nll_loss(x.unsqueeze(-1), L.tensor([[0], [1], [3]])),
    "bce_with_logits": lambda F, L, x: F.binary_cross_entropy_with_logits(x, x),
    "kl_div": lambda F, L, x: F.kl_div(x, x, reduction="batchmean"),
    "cosine_similarity": lambda F, L, x: F.cosine_similarity(x, x.flip(0)),
    "pdist": lambda F, L, x: F.pdist(x),
    "adaptive_avg_pool1d": lambda F, L, x: F.adaptive_avg_pool1d(x.unsqueeze(0), 2),
    "interpolate_linear": lambda F, L, x: F.interpolate(x.unsqueeze(0), size=6, mode="linear"),
}

# (exception type, first line of the message) PyTorch 2.13 raises; None where it accepts.
RECORDED = {
    "elu/int64": ("NotImplementedError", "\"elu_cpu\" not implemented for 'Long'"),
    "elu/int32": ("NotImplementedError", "\"elu_cpu\" not implemented for 'Int'"),
    "elu/uint8": ("NotImplementedError", "\"elu_cpu\" not implemented for 'Byte'"),
    "elu/bool": ("NotImplementedError", "\"elu_cpu\" not implemented for 'Bool'"),
    "elu/float16": None,
    "elu/bfloat16": None,
    "selu/int64": ("NotImplementedError", "\"elu_cpu\" not implemented for 'Long'"),
    "selu/int32": ("NotImplementedError", "\"elu_cpu\" not implemented for 'Int'"),
    "selu/uint8": ("NotImplementedError", "\"elu_cpu\" not implemented for 'Byte'"),
    "selu/bool": ("NotImplementedError", "\"elu_cpu\" not implemented for 'Bool'"),
    "selu/float16": None,
    "selu/bfloat16": None,
    "celu/int64": ("NotImplementedError", "\"elu_cpu\" not implemented for 'Long'"),
    "celu/int32": ("NotImplementedError", "\"elu_cpu\" not implemented for 'Int'"),
    "celu/uint8": ("NotImplementedError", "\"elu_cpu\" not implemented for 'Byte'"),
    "celu/bool": ("NotImplementedError", "\"elu_cpu\" not implemented for 'Bool'"),
    "celu/float16": None,
    "celu/bfloat16": None,
    "gelu/int64": ("NotImplementedError", "\"GeluKernelImpl\" not implemented for 'Long'"),
    "gelu/int32": ("NotImplementedError", "\"GeluKernelImpl\" not implemented for 'Int'"),
    "gelu/uint8": ("NotImplementedError", "\"GeluKernelImpl\" not implemented for 'Byte'"),
    "gelu/bool": ("NotImplementedError", "\"GeluKernelImpl\" not implemented for 'Bool'"),
    "gelu/float16": None,
    "gelu/bfloat16": None,
    "gelu_tanh/int64": ("NotImplementedError", "\"GeluKernelImpl\" not implemented for 'Long'"),
    "gelu_tanh/int32": ("NotImplementedError", "\"GeluKernelImpl\" not implemented for 'Int'"),
    "gelu_tanh/uint8": ("NotImplementedError", "\"GeluKernelImpl\" not implemented for 'Byte'"),
    "gelu_tanh/bool": ("NotImplementedError", "\"GeluKernelImpl\" not implemented for 'Bool'"),
    "gelu_tanh/float16": None,
    "gelu_tanh/bfloat16": None,
    "silu/int64": ("NotImplementedError", "\"silu_cpu\" not implemented for 'Long'"),
    "silu/int32": ("NotImplementedError", "\"silu_cpu\" not implemented for 'Int'"),
    "silu/uint8": ("NotImplementedError", "\"silu_cpu\" not implemented for 'Byte'"),
    "silu/bool": ("NotImplementedError", "\"silu_cpu\" not implemented for 'Bool'"),
    "silu/float16": None,
    "silu/bfloat16": None,
    "mish/int64": ("NotImplementedError", "\"mish_cpu\" not implemented for 'Long'"),
    "mish/int32": ("NotImplementedError", "\"mish_cpu\" not implemented for 'Int'"),
    "mish/uint8": ("NotImplementedError", "\"mish_cpu\" not implemented for 'Byte'"),
    "mish/bool": ("NotImplementedError", "\"mish_cpu\" not implemented for 'Bool'"),
    "mish/float16": None,
    "mish/bfloat16": None,
    "softplus/int64": ("NotImplementedError", "\"softplus_cpu\" not implemented for 'Long'"),
    "softplus/int32": ("NotImplementedError", "\"softplus_cpu\" not implemented for 'Int'"),
    "softplus/uint8": ("NotImplementedError", "\"softplus_cpu\" not implemented for 'Byte'"),
    "softplus/bool": ("NotImplementedError", "\"softplus_cpu\" not implemented for 'Bool'"),
    "softplus/float16": None,
    "softplus/bfloat16": None,
    "hardsigmoid/int64": ("NotImplementedError", "\"hardsigmoid_cpu\" not implemented for 'Long'"),
    "hardsigmoid/int32": ("NotImplementedError", "\"hardsigmoid_cpu\" not implemented for 'Int'"),
    "hardsigmoid/uint8": ("NotImplementedError", "\"hardsigmoid_cpu\" not implemented for 'Byte'"),
    "hardsigmoid/bool": ("NotImplementedError", "\"hardsigmoid_cpu\" not implemented for 'Bool'"),
    "hardsigmoid/float16": None,
    "hardsigmoid/bfloat16": None,
    "hardswish/int64": ("NotImplementedError", "\"hardswish_cpu\" not implemented for 'Long'"),
    "hardswish/int32": ("NotImplementedError", "\"hardswish_cpu\" not implemented for 'Int'"),
    "hardswish/uint8": ("NotImplementedError", "\"hardswish_cpu\" not implemented for 'Byte'"),
    "hardswish/bool": ("NotImplementedError", "\"hardswish_cpu\" not implemented for 'Bool'"),
    "hardswish/float16": None,
    "hardswish/bfloat16": None,
    "hardshrink/int64": ("NotImplementedError", "\"hardshrink_cpu\" not implemented for 'Long'"),
    "hardshrink/int32": ("NotImplementedError", "\"hardshrink_cpu\" not implemented for 'Int'"),
    "hardshrink/uint8": ("NotImplementedError", "\"hardshrink_cpu\" not implemented for 'Byte'"),
    "hardshrink/bool": ("NotImplementedError", "\"hardshrink_cpu\" not implemented for 'Bool'"),
    "hardshrink/float16": None,
    "hardshrink/bfloat16": None,
    "softshrink/int64": ("NotImplementedError", "\"softshrink_check\" not implemented for 'Long'"),
    "softshrink/int32": ("NotImplementedError", "\"softshrink_check\" not implemented for 'Int'"),
    "softshrink/uint8": ("NotImplementedError", "\"softshrink_check\" not implemented for 'Byte'"),
    "softshrink/bool": ("NotImplementedError", "\"softshrink_check\" not implemented for 'Bool'"),
    "softshrink/float16": None,
    "softshrink/bfloat16": None,
    "leaky_relu/int64": ("NotImplementedError", "\"leaky_relu_cpu\" not implemented for 'Long'"),
    "leaky_relu/int32": ("NotImplementedError", "\"leaky_relu_cpu\" not implemented for 'Int'"),
    "leaky_relu/uint8": ("NotImplementedError", "\"leaky_relu_cpu\" not implemented for 'Byte'"),
    "leaky_relu/bool": ("NotImplementedError", "\"leaky_relu_cpu\" not implemented for 'Bool'"),
    "leaky_relu/float16": None,
    "leaky_relu/bfloat16": None,
    "logsigmoid/int64": ("NotImplementedError", "\"log_sigmoid_cpu\" not implemented for 'Long'"),
    "logsigmoid/int32": ("NotImplementedError", "\"log_sigmoid_cpu\" not implemented for 'Int'"),
    "logsigmoid/uint8": ("NotImplementedError", "\"log_sigmoid_cpu\" not implemented for 'Byte'"),
    "logsigmoid/bool": ("NotImplementedError", "\"log_sigmoid_cpu\" not implemented for 'Bool'"),
    "logsigmoid/float16": None,
    "logsigmoid/bfloat16": None,
    "threshold/int64": None,
    "threshold/int32": None,
    "threshold/uint8": None,
    "threshold/bool": ("NotImplementedError", "\"threshold_cpu\" not implemented for 'Bool'"),
    "threshold/float16": None,
    "threshold/bfloat16": None,
    "glu/int64": ("NotImplementedError", "\"glu_cpu\" not implemented for 'Long'"),
    "glu/int32": ("NotImplementedError", "\"glu_cpu\" not implemented for 'Int'"),
    "glu/uint8": ("NotImplementedError", "\"glu_cpu\" not implemented for 'Byte'"),
    "glu/bool": ("NotImplementedError", "\"glu_cpu\" not implemented for 'Bool'"),
    "glu/float16": None,
    "glu/bfloat16": None,
    "normalize/int64": (
        "RuntimeError",
        "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long",
    ),
    "normalize/int32": (
        "RuntimeError",
        "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Int",
    ),
    "normalize/uint8": (
        "RuntimeError",
        "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Byte",
    ),
    "normalize/bool": (
        "RuntimeError",
        "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Bool",
    ),
    "normalize/float16": None,
    "normalize/bfloat16": None,
    "layer_norm/int64": (
        "NotImplementedError",
        "\"LayerNormKernelImpl\" not implemented for 'Long'",
    ),
    "layer_norm/int32": (
        "NotImplementedError",
        "\"LayerNormKernelImpl\" not implemented for 'Int'",
    ),
    "layer_norm/uint8": (
        "NotImplementedError",
        "\"LayerNormKernelImpl\" not implemented for 'Byte'",
    ),
    "layer_norm/bool": (
        "NotImplementedError",
        "\"LayerNormKernelImpl\" not implemented for 'Bool'",
    ),
    "layer_norm/float16": None,
    "layer_norm/bfloat16": None,
    "rms_norm/int64": ("NotImplementedError", "\"rms_norm\" not implemented for 'Long'"),
    "rms_norm/int32": ("NotImplementedError", "\"rms_norm\" not implemented for 'Int'"),
    "rms_norm/uint8": ("NotImplementedError", "\"rms_norm\" not implemented for 'Byte'"),
    "rms_norm/bool": ("NotImplementedError", "\"rms_norm\" not implemented for 'Bool'"),
    "rms_norm/float16": None,
    "rms_norm/bfloat16": None,
    "group_norm/int64": (
        "NotImplementedError",
        "\"GroupNormKernelImpl\" not implemented for 'Long'",
    ),
    "group_norm/int32": (
        "NotImplementedError",
        "\"GroupNormKernelImpl\" not implemented for 'Int'",
    ),
    "group_norm/uint8": (
        "NotImplementedError",
        "\"GroupNormKernelImpl\" not implemented for 'Byte'",
    ),
    "group_norm/bool": (
        "NotImplementedError",
        "\"GroupNormKernelImpl\" not implemented for 'Bool'",
    ),
    "group_norm/float16": None,
    "group_norm/bfloat16": None,
    "pad_reflect/int64": None,
    "pad_reflect/int32": None,
    "pad_reflect/uint8": None,
    "pad_reflect/bool": ("NotImplementedError", "\"reflection_pad1d\" not implemented for 'Bool'"),
    "pad_reflect/float16": None,
    "pad_reflect/bfloat16": None,
    "pad_replicate_2d/int64": None,
    "pad_replicate_2d/int32": None,
    "pad_replicate_2d/uint8": None,
    "pad_replicate_2d/bool": (
        "NotImplementedError",
        "\"replication_pad2d\" not implemented for 'Bool'",
    ),
    "pad_replicate_2d/float16": None,
    "pad_replicate_2d/bfloat16": None,
    "mse_loss/int64": ("NotImplementedError", "\"mse_cpu\" not implemented for 'Long'"),
    "mse_loss/int32": ("NotImplementedError", "\"mse_cpu\" not implemented for 'Int'"),
    "mse_loss/uint8": ("NotImplementedError", "\"mse_cpu\" not implemented for 'Byte'"),
    "mse_loss/bool": ("NotImplementedError", "\"mse_cpu\" not implemented for 'Bool'"),
    "mse_loss/float16": None,
    "mse_loss/bfloat16": None,
    "smooth_l1_loss/int64": ("NotImplementedError", "\"smooth_l1_cpu\" not implemented for 'Long'"),
    "smooth_l1_loss/int32": ("NotImplementedError", "\"smooth_l1_cpu\" not implemented for 'Int'"),
    "smooth_l1_loss/uint8": ("NotImplementedError", "\"smooth_l1_cpu\" not implemented for 'Byte'"),
    "smooth_l1_loss/bool": ("NotImplementedError", "\"smooth_l1_cpu\" not implemented for 'Bool'"),
    "smooth_l1_loss/float16": None,
    "smooth_l1_loss/bfloat16": None,
    "huber_loss/int64": ("NotImplementedError", "\"huber_cpu\" not implemented for 'Long'"),
    "huber_loss/int32": ("NotImplementedError", "\"huber_cpu\" not implemented for 'Int'"),
    "huber_loss/uint8": ("NotImplementedError", "\"huber_cpu\" not implemented for 'Byte'"),
    "huber_loss/bool": ("NotImplementedError", "\"huber_cpu\" not implemented for 'Bool'"),
    "huber_loss/float16": None,
    "huber_loss/bfloat16": None,
    "nll_loss/int64": ("NotImplementedError", "\"nll_loss_out_frame\" not implemented for 'Long'"),
    "nll_loss/int32": ("NotImplementedError", "\"nll_loss_out_frame\" not implemented for 'Int'"),
    "nll_loss/uint8": ("NotImplementedError", "\"nll_loss_out_frame\" not implemented for 'Byte'"),
    "nll_loss/bool": ("NotImplementedError", "\"nll_loss_out_frame\" not implemented for 'Bool'"),
    "nll_loss/float16": None,
    "nll_loss/bfloat16": None,
    "nll_loss_3d/int64": (
        "NotImplementedError",
        "\"nll_loss2d_forward_out_frame\" not implemented for 'Long'",
    ),
    "nll_loss_3d/int32": (
        "NotImplementedError",
        "\"nll_loss2d_forward_out_frame\" not implemented for 'Int'",
    ),
    "nll_loss_3d/uint8": (
        "NotImplementedError",
        "\"nll_loss2d_forward_out_frame\" not implemented for 'Byte'",
    ),
    "nll_loss_3d/bool": (
        "NotImplementedError",
        "\"nll_loss2d_forward_out_frame\" not implemented for 'Bool'",
    ),
    "nll_loss_3d/float16": None,
    "nll_loss_3d/bfloat16": None,
    "bce_with_logits/int64": (
        "NotImplementedError",
        "\"log_sigmoid_cpu\" not implemented for 'Long'",
    ),
    "bce_with_logits/int32": (
        "NotImplementedError",
        "\"log_sigmoid_cpu\" not implemented for 'Int'",
    ),
    "bce_with_logits/uint8": (
        "NotImplementedError",
        "\"log_sigmoid_cpu\" not implemented for 'Byte'",
    ),
    "bce_with_logits/bool": (
        "NotImplementedError",
        "\"log_sigmoid_cpu\" not implemented for 'Bool'",
    ),
    "bce_with_logits/float16": None,
    "bce_with_logits/bfloat16": None,
    "kl_div/int64": ("RuntimeError", "kl_div: Integral inputs not supported."),
    "kl_div/int32": ("RuntimeError", "kl_div: Integral inputs not supported."),
    "kl_div/uint8": ("RuntimeError", "kl_div: Integral inputs not supported."),
    "kl_div/bool": ("RuntimeError", "kl_div: Integral inputs not supported."),
    "kl_div/float16": None,
    "kl_div/bfloat16": None,
    "cosine_similarity/int64": (
        "RuntimeError",
        "expected common dtype to be floating point, yet common dtype is Long",
    ),
    "cosine_similarity/int32": (
        "RuntimeError",
        "expected common dtype to be floating point, yet common dtype is Int",
    ),
    "cosine_similarity/uint8": (
        "RuntimeError",
        "expected common dtype to be floating point, yet common dtype is Byte",
    ),
    "cosine_similarity/bool": (
        "RuntimeError",
        "expected common dtype to be floating point, yet common dtype is Bool",
    ),
    "cosine_similarity/float16": None,
    "cosine_similarity/bfloat16": None,
    "pdist/int64": ("RuntimeError", "pdist only supports floating-point dtypes"),
    "pdist/int32": ("RuntimeError", "pdist only supports floating-point dtypes"),
    "pdist/uint8": ("RuntimeError", "pdist only supports floating-point dtypes"),
    "pdist/bool": ("RuntimeError", "pdist only supports floating-point dtypes"),
    "pdist/float16": ("NotImplementedError", "\"pdist\" not implemented for 'Half'"),
    "pdist/bfloat16": ("NotImplementedError", "\"pdist\" not implemented for 'BFloat16'"),
    "adaptive_avg_pool1d/int64": (
        "NotImplementedError",
        "\"adaptive_avg_pool2d\" not implemented for 'Long'",
    ),
    "adaptive_avg_pool1d/int32": (
        "NotImplementedError",
        "\"adaptive_avg_pool2d\" not implemented for 'Int'",
    ),
    "adaptive_avg_pool1d/uint8": (
        "NotImplementedError",
        "\"adaptive_avg_pool2d\" not implemented for 'Byte'",
    ),
    "adaptive_avg_pool1d/bool": (
        "NotImplementedError",
        "\"adaptive_avg_pool2d\" not implemented for 'Bool'",
    ),
    "adaptive_avg_pool1d/float16": None,
    "adaptive_avg_pool1d/bfloat16": None,
    "interpolate_linear/int64": (
        "NotImplementedError",
        "\"compute_indices_weights_linear\" not implemented for 'Long'",
    ),
    "interpolate_linear/int32": (
        "NotImplementedError",
        "\"compute_indices_weights_linear\" not implemented for 'Int'",
    ),
    "interpolate_linear/uint8": (
        "NotImplementedError",
        "\"compute_indices_weights_linear\" not implemented for 'Byte'",
    ),
    "interpolate_linear/bool": (
        "NotImplementedError",
        "\"compute_indices_weights_linear\" not implemented for 'Bool'",
    ),
    "interpolate_linear/float16": None,
    "interpolate_linear/bfloat16": None,
}


def _input(lib, dtype):
    return (lib.arange(12).reshape(3, 4) % 5 - 2).to(getattr(lib, dtype))


def _outcome(F, lib, name, dtype):
    try:
        CASES[name](F, lib, _input(lib, dtype))
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        return type(e).__name__, str(e).splitlines()[0]
    return None


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("dtype", DTYPES)
def test_functional_dtype_refusal_matches_recorded(name, dtype):
    assert _outcome(EF, engine, name, dtype) == RECORDED[f"{name}/{dtype}"]


def test_refused_inputs_still_work_as_floats():
    x = _input(engine, "int64")
    assert EF.elu(x.float()).dtype == engine.float32
    assert EF.mse_loss(x.float(), x).dtype == engine.float32  # a float input promotes the target


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("dtype", DTYPES)
def test_functional_dtype_refusal_matches_torch(name, dtype):
    torch = pytest.importorskip("torch")
    import torch.nn.functional as TF

    assert _outcome(EF, engine, name, dtype) == _outcome(TF, torch, name, dtype)


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", ["int64", "bool"])
def test_softmax_of_no_integer_elements_is_empty_as_in_pytorch(fn, dtype):
    # PyTorch 2.13 runs no kernel for an empty input, so integer and bool pass with their dtype.
    x = engine.ones((2, 0, 3), dtype=getattr(engine, dtype))
    for dim in (0, -1):
        out = getattr(engine, fn)(x, dim)
        assert (tuple(out.shape), out.stride(), out.dtype) == ((2, 0, 3), (3, 3, 1), x.dtype)
    with pytest.raises(NotImplementedError, match=f'"{fn}_lastdim_kernel_impl" not implemented'):
        getattr(engine, fn)(engine.ones(2, dtype=getattr(engine, dtype)), 0)
