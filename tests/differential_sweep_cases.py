"""Cases the differential sweep found where engine and PyTorch 2.13 differed, by topic, and how one
call's outcome is summarised for comparison: the dtype, shape, strides and values of each tensor
returned, or the exception's type and first line. tests/fixtures/differential_sweep.json holds
PyTorch's outcomes (recorded by tests/fixtures/record_differential_sweep.py); the
test_differential_<topic>.py files compare engine with them, and with torch itself when it imports.
Each case is an expression over ``L`` (engine or torch), ``F`` (its nn.functional) and ``x`` (a
3x4 float32 tensor of fixed values)."""

import math

U8 = "x.abs().to(L.uint8)"
X = [[0.5, -1.25, 2.0, 0.0], [3.5, -0.75, 1.5, -2.0], [1.0, 2.25, -3.0, 0.25]]

TOPICS = {
    "scatter": {
        "scatter_add_kw": "L.scatter(x, 0, L.tensor([[0, 1, 2, 0]]), x[:1], reduce='add')",
        "scatter_multiply_kw": "L.scatter(x, 1, L.tensor([[0], [3], [3]]), x[:, :1], reduce='multiply')",
        "scatter_value_add": "L.scatter(x, 0, L.tensor([[2, 0]]), 1.5, reduce='add')",
        "scatter_value_multiply_int": "L.scatter(x.long(), 0, L.tensor([[2, 0]]), 2.5, reduce='multiply')",
        "scatter_method_reduce": "x.scatter(1, L.tensor([[1, 1]]), 4.0, reduce='add')",
        "scatter_inplace_reduce": "x.clone().scatter_(1, L.tensor([[1, 1]]), x[:1], reduce='multiply')",
        "scatter_bad_reduce": "L.scatter(x, 0, L.tensor([[0]]), x[:1], reduce='mean')",
        "scatter_reduce_mean_int32": "L.scatter_reduce(x.int(), 0, L.tensor([[0, 0, 1, 2]]), x[:1].int() * 3, 'mean')",
        "scatter_reduce_mean_uint8": (
            f"L.scatter_reduce({U8}, 1, L.tensor([[0, 0], [1, 3], [2, 2]]), {U8}[:, :2] + 7, "
            "'mean', include_self=False)"
        ),
        "index_reduce_mean_int32": "L.index_reduce(x.int(), 0, L.tensor([0, 0]), x[:2].int() + 5, 'mean')",
        "scatter_reduce_bool_amin_exclude_self": (
            "L.scatter_reduce(x > 0, 1, L.tensor([[0, 0, 3]]), x[:1] < 1, 'amin', "
            "include_self=False)"
        ),
        "scatter_reduce_bool_amax_exclude_self": (
            "L.scatter_reduce(x > 0, 1, L.tensor([[0, 0, 3]]), x[:1] < 1, 'amax', "
            "include_self=False)"
        ),
        "scatter_reduce_bool_mean": "L.scatter_reduce(x > 0, 0, L.tensor([[0, 1]]), x[:1] > 0, 'mean')",
        "index_reduce_bool": "L.index_reduce(x > 0, 0, L.tensor([0]), x[:1] > 0, 'amax')",
        "index_reduce_bool_vector": "L.index_reduce(x[0] > 0, 0, L.tensor([0]), x[0, :1] > 0, 'amax')",
        "index_reduce_bool_mean": "L.index_reduce(x > 0, 0, L.tensor([0]), x[:1] > 0, 'mean')",
        "index_reduce_bool_exclude_self": (
            "L.index_reduce(x > 0, 0, L.tensor([0]), x[:1] > 0, 'prod', include_self=False)"
        ),
        "scatter_reduce_prod_bfloat16": (
            "L.scatter_reduce(x.bfloat16(), 0, L.tensor([[0, 0, 1, 2]]), x[:1].bfloat16() * 3, "
            "'prod')"
        ),
    },
    "interpolate": {
        "nearest_1d_up": "F.interpolate((x.abs() * 40).to(L.uint8)[None], scale_factor=1.5)",
        "nearest_exact_1d_down": "F.interpolate((x.abs() * 40).to(L.uint8)[None], size=3, mode='nearest-exact')",
        "nearest_2d": "F.interpolate((x.abs() * 40).to(L.uint8)[None, None], size=(5, 2))",
        "nearest_exact_3d": (
            "F.interpolate((x.abs() * 40).to(L.uint8)[None, None, None], "
            "scale_factor=(2, 1.5, 0.5), mode='nearest-exact')"
        ),
        "nearest_int64_refused": "F.interpolate(x.long()[None], scale_factor=2)",
        "bilinear_antialias_down": "F.interpolate(x[None, None], size=(2, 3), mode='bilinear', antialias=True)",
        "bilinear_antialias_scale": (
            "F.interpolate(x[None, None], scale_factor=(0.5, 1.5), mode='bilinear', antialias=True)"
        ),
        "bicubic_antialias_down": "F.interpolate(x[None, None], scale_factor=0.6, mode='bicubic', antialias=True)",
        "bicubic_antialias_align_corners": (
            "F.interpolate(x[None, None], size=(2, 2), mode='bicubic', antialias=True, align_corners=True)"
        ),
        "antialias_needs_4d": "F.interpolate(x[None], scale_factor=0.5, mode='linear', antialias=True)",
        "linear_uint8_refused": "F.interpolate(x.to(L.uint8)[None], scale_factor=2, mode='linear')",
    },
    "pooling_int64": {
        "avg_pool1d": "F.avg_pool1d((x * 4).long(), 2)",
        "avg_pool1d_padding_ceil": "F.avg_pool1d((x * 4).long(), 3, 2, 1, ceil_mode=True)",
        "avg_pool1d_exclude_pad": "F.avg_pool1d((x * 4).long(), 3, 2, 1, True, count_include_pad=False)",
        "avg_pool2d": "F.avg_pool2d((x * 4).long()[None], 2, 1)",
        "avg_pool2d_divisor": "F.avg_pool2d((x * 4).long()[None, None], 2, 1, 1, divisor_override=3)",
        "avg_pool3d": "F.avg_pool3d((x * 4).long()[None, None].expand(1, 1, 2, 3, 4), (2, 2, 3), 1, 1)",
        "avg_pool1d_int32_refused": "F.avg_pool1d(x.int(), 2)",
    },
    "pad_circular": {
        "crop_before_wrap_after": "F.pad(x[None], (-1, 2), mode='circular')",
        "wrap_before_crop_after": "F.pad(x[None], (2, -1), mode='circular')",
        "crop_both": "F.pad(x[None], (-2, -1), mode='circular')",
        "two_dims_mixed": "F.pad(x[None, None], (-1, 0, 1, -2), mode='circular')",
        "plain": "F.pad(x[None], (1, 1), mode='circular')",
    },
    "special_out": {
        "ndtr_into_int64": "L.special.ndtr(x, out=L.empty(3, 4, dtype=L.int64))",
        "ndtr_into_float64": "L.special.ndtr(x, out=L.empty(0, dtype=L.float64))",
        "airy_ai_into_bool": "L.special.airy_ai(x, out=L.empty(3, 4, dtype=L.bool))",
        "i0e_resized": "L.special.i0e(x, out=L.empty(2))",
        "zeta_into_int32": "L.special.zeta(x.abs() + 1, 2.0, out=L.empty(0, dtype=L.int32))",
        "legendre_into_float64": "L.special.legendre_polynomial_p(x / 4, 3, out=L.empty(0, dtype=L.float64))",
        "entr_out_not_tensor": "L.special.entr(x, out=[1])",
        "log_ndtr_out_not_tensor": "L.special.log_ndtr(x, out=2.5)",
    },
    "composed_out": {
        "div_floor_into_int64": "L.div(x, 2, rounding_mode='floor', out=L.empty(3, 4, dtype=L.int64))",
        "div_trunc_int_resized": "L.div(x.long(), 2, rounding_mode='trunc', out=L.empty(5, dtype=L.int64))",
        "div_floor_requires_grad": (
            "L.div(x.clone().requires_grad_(), 2, rounding_mode='floor', out=L.empty(3, 4))"
        ),
        "normalize_into_int64": "F.normalize(x, out=L.empty(3, 4, dtype=L.int64))",
        "normalize_resized": "F.normalize(x, dim=0, out=L.empty(7))",
        "tensordot_into_float64": "L.tensordot(x, x.t(), 1, out=L.empty(0, dtype=L.float64))",
        "tensordot_positional_out": "L.tensordot(x, x.t(), 1, L.empty(0))",
        "inner_into_float64": "L.inner(x, x[0], out=L.empty(0, dtype=L.float64))",
        "eye_into_empty_int64": "L.eye(3, out=L.empty(0, dtype=L.int64))",
        "eye_into_wrong_shape": "L.eye(2, 3, out=L.empty(5))",
        "conj_physical_resized": "L.conj_physical(x, out=L.empty(0))",
        "mm_into_float64": "L.mm(x, x.t(), out=L.empty(3, 3, dtype=L.float64))",
        "mm_resized": "L.mm(x, x.t(), out=L.empty(0))",
        "mm_requires_grad": "L.mm(x.clone().requires_grad_(), x.t(), out=L.empty(3, 3))",
        "addmm_into_int64": "L.addmm(x[:, :3], x, x.t(), out=L.empty(3, 3, dtype=L.int64))",
        "addmm_resized": "L.addmm(x[0, :3], x, x.t(), beta=0.5, alpha=2, out=L.empty(0))",
        "addmv_resized": "L.addmv(x[:, 0], x, x[0], out=L.empty(0))",
        "addmv_into_float64": "L.addmv(x[:, 0], x, x[0], out=L.empty(3, dtype=L.float64))",
        "baddbmm_resized": "L.baddbmm(x[None, :, :3], x[None], x.t()[None], out=L.empty(0))",
        "addbmm_into_float64": (
            "L.addbmm(x[:, :3], x[None], x.t()[None], out=L.empty(3, 3, dtype=L.float64))"
        ),
        "addbmm_resized": "L.addbmm(x[:, :3], x[None], x.t()[None], alpha=3, out=L.empty(0))",
        "addr_into_float64": "L.addr(x, x[:, 0], x[0], out=L.empty(0, dtype=L.float64))",
        "addr_into_int64": "L.addr(x, x[:, 0], x[0], out=L.empty(3, 4, dtype=L.int64))",
    },
    "unfold_fold_dtypes": {
        "unfold_bool": "F.unfold(x[None, None] > 0, 2, padding=1)",
        "unfold_bool_unbatched": "F.unfold(x[None] > 0, (2, 3), stride=(1, 2))",
        "unfold_int64_refused": "F.unfold(x.long()[None, None], 2)",
        "fold_bool": "F.fold(L.arange(16).reshape(1, 4, 4) % 3 == 0, (3, 3), 2)",
        "fold_uint8_refused": "F.fold(L.arange(16).reshape(1, 4, 4).to(L.uint8), (3, 3), 2)",
        "fold_uint8_bad_shape": "F.fold(x.abs().to(L.uint8)[None, :, :4], (3, 3), 2)",
    },
    "reduction_dims": {
        "nansum_dtype_int32": "L.nansum(x, (0,), dtype=L.int32)",
        "nansum_all_dtype_int32": "L.nansum(x, dtype=L.int32)",
        "nansum_uint8_dtype_int16": "L.nansum(x.abs().to(L.uint8), 1, dtype=L.int16)",
        "nanmean_int_dtype": "L.nanmean(x, 0, dtype=L.int64)",
        "all_empty_dims": "L.all(x, ())",
        "any_empty_dims_keepdim": "L.any(x, (), keepdim=True)",
        "all_uint8_empty_dims": "L.all(x.abs().to(L.uint8), [])",
        "any_method_empty_dims": "x.any(dim=())",
        "all_transposed_empty_dims": "L.all(x.t(), ())",
        "count_nonzero_empty_dims": "L.count_nonzero(x, ())",
        "count_nonzero_0d_empty_dims": "L.count_nonzero(x[0, 0], ())",
    },
    "composed_layout": {
        "zeta_scalar_transposed": "L.special.zeta(x.abs().t() + 1, 2)",
        "zeta_scalar_first_transposed": "L.special.zeta(3.0, x.abs().t() + 1)",
        "zeta_transposed_with_contiguous": "L.special.zeta(x.abs().t() + 1, L.ones(4, 3) * 2)",
        "chebyshev_t_scalar_transposed": "L.special.chebyshev_polynomial_t(x.t() / 4, 3)",
        "hermite_h_scalar_transposed": "L.special.hermite_polynomial_h(x.t(), 2)",
        "legendre_p_sliced": "L.special.legendre_polynomial_p(x[:, ::2] / 4, 4)",
        "laguerre_l_transposed_tensor_n": "L.special.laguerre_polynomial_l(x.t(), L.tensor(3.0))",
        "logsigmoid_transposed": "F.logsigmoid(x.t())",
        "rrelu_eval_transposed": "F.rrelu(x.t(), training=False)",
    },
    "scalar_promotion": {
        "addmm_int_fractional_beta": "L.addmm(x.long()[:, :3], x.long(), x.long().t(), beta=0.5, alpha=2)",
        "addmm_uint8": f"L.addmm({U8}[:, :3], {U8}, {U8}.t(), beta=1.5, alpha=2.7)",
        "addmv_int_fractional_beta": "L.addmv(x.long()[:, 0], x.long(), x.long()[0], beta=0.5)",
        "baddbmm_int": "L.baddbmm(x.long()[None, :, :3], x.long()[None], x.long().t()[None], beta=1.5, alpha=0.5)",
        "addcmul_int_float_value": "L.addcmul(x.long(), x.long(), x.long(), value=2.5)",
        "addcmul_uint8_float_value": f"L.addcmul({U8}, {U8}, {U8}, value=1.5)",
        "addcmul_float_value": "L.addcmul(x, x.long(), x.long(), value=2.5)",
        "hardtanh_uint8_fractional_negative_min": "F.hardtanh(x.abs().to(L.uint8), -0.5, 2.0)",
        "hardtanh_uint8_negative_min": "F.hardtanh(x.abs().to(L.uint8), -1.0, 2.0)",
        "searchsorted_bool": "L.searchsorted(L.tensor([False, True]), L.tensor([True, False]))",
        "bucketize_bool": "L.bucketize(L.tensor([True]), L.tensor([False, True]))",
        "searchsorted_int_bool_values": "L.searchsorted(L.tensor([0, 1, 2]), L.tensor([True, False]))",
    },
}


def _summary(value):
    if hasattr(value, "dtype") and hasattr(value, "stride"):
        items = value.detach().double().tolist() if value.numel() else []
        if value.dim() == 0:
            items = [items]
        return [
            str(value.dtype).split(".")[-1],
            list(value.shape),
            list(value.stride()),
            _rounded(items),
        ]
    if isinstance(value, (tuple, list)):
        return [_summary(v) for v in value]
    return repr(value)


def _rounded(items):
    if isinstance(items, list):
        return [_rounded(v) for v in items]
    if math.isnan(items) or math.isinf(items):
        return repr(items)
    return float(f"{items:.6g}")


def same(a, b, tol=2e-5):
    """Whether two outcomes agree: everything exactly but floating values, which may differ by
    ``tol`` relatively (float32 results computed in another order)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y, tol) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=tol, abs_tol=tol)
    return a == b


def outcome(L, expr):
    """The summary of ``expr`` evaluated with library ``L``, as a JSON-able list."""
    import warnings

    F = L.nn.functional
    x = L.tensor(X)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ["ok", _summary(eval(expr, {"L": L, "F": F, "x": x}))]
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        return [type(e).__name__, str(e).splitlines()[0]]


def topic_tests(topic):
    """The two tests of one topic's file: each case against PyTorch's recorded outcome, and against
    torch itself when it imports. A test file binds them to module-level names for pytest."""
    import json
    import pathlib

    import engine
    import pytest

    cases = TOPICS[topic]
    fixture = pathlib.Path(__file__).parent / "fixtures" / "differential_sweep.json"
    recorded = json.loads(fixture.read_text())[topic]

    @pytest.mark.parametrize("name", sorted(cases))
    def test_matches_recorded_pytorch(name):
        assert same(outcome(engine, cases[name]), recorded[name])

    @pytest.mark.parametrize("name", sorted(cases))
    def test_matches_torch(name):
        torch = pytest.importorskip("torch")
        assert same(outcome(engine, cases[name]), outcome(torch, cases[name]))

    return test_matches_recorded_pytorch, test_matches_torch
