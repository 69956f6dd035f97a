"""The recorded convolution, pooling and resampling cases (tests/fixtures/conv.json), as one
table written against a functional module: record_conv.py builds it with torch.nn.functional,
the tests with engine.nn.functional."""


def cases(F):
    """name -> (function of F's tensors, input keys)."""
    table = {
        "conv2d_groups": (
            lambda x, w, b: F.conv2d(x, w, b, (2, 1), (1, 2), (1, 2), 2),
            ("x4", "w_g", "b6"),
        ),
        "conv_transpose2d": (
            lambda x, w, b: F.conv_transpose2d(x, w, b, (2, 3), (1, 0), (1, 2), 2, (1, 2)),
            ("x4", "wt", "b6"),
        ),
        "conv_transpose1d": (lambda x, w: F.conv_transpose1d(x, w, None, 3, 1, 1), ("x3", "wt1")),
        "conv3d": (lambda x, w: F.conv3d(x, w, None, (1, 2, 1), (1, 0, 1)), ("x5", "w3")),
        "conv2d_same": (
            lambda x, w: F.conv2d(x, w, padding="same", dilation=(1, 2)),
            ("x4", "w_same"),
        ),
        "max_pool2d_ceil": (lambda x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True), ("x4",)),
        "max_pool2d_dilation": (lambda x: F.max_pool2d(x, (2, 3), (1, 2), 1, (2, 1)), ("x4",)),
        "avg_pool2d_ceil_excl": (
            lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
            ("x4",),
        ),
        "avg_pool2d_ceil_incl": (lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True), ("x4",)),
        "avg_pool2d_divisor": (
            lambda x: F.avg_pool2d(x, (3, 2), (2, 1), 1, divisor_override=5),
            ("x4",),
        ),
        "avg_pool1d_ceil": (lambda x: F.avg_pool1d(x, 4, 3, 2, ceil_mode=True), ("x3",)),
        "avg_pool3d": (
            lambda x: F.avg_pool3d(x, (2, 3, 2), padding=1, count_include_pad=False),
            ("x5",),
        ),
        "adaptive_avg_pool2d": (lambda x: F.adaptive_avg_pool2d(x, (3, 4)), ("x4",)),
        "adaptive_max_pool2d": (lambda x: F.adaptive_max_pool2d(x, (5, 4)), ("x4",)),
        "lp_pool2d": (lambda x: F.lp_pool2d(x, 2, 2, ceil_mode=True), ("x4",)),
        "bicubic": (lambda x: F.interpolate(x, size=(11, 4), mode="bicubic"), ("x4",)),
        "bicubic_align": (
            lambda x: F.interpolate(x, scale_factor=(1.7, 0.6), mode="bicubic", align_corners=True),
            ("x4",),
        ),
        "bilinear_scale": (lambda x: F.interpolate(x, scale_factor=1.7, mode="bilinear"), ("x4",)),
        "trilinear": (lambda x: F.interpolate(x, size=(3, 7, 5), mode="trilinear"), ("x5",)),
        "nearest_exact": (
            lambda x: F.interpolate(x, scale_factor=(1.7, 0.6), mode="nearest-exact"),
            ("x4",),
        ),
        "area": (lambda x: F.interpolate(x, size=(3, 4), mode="area"), ("x4",)),
    }
    for mode in ("bilinear", "nearest", "bicubic"):
        for pad in ("zeros", "border", "reflection"):
            for ac in (False, True):
                table[f"grid_sample_{mode}_{pad}_{ac}"] = (
                    lambda x, g, m=mode, p=pad, a=ac: F.grid_sample(x, g, m, p, a),
                    ("x4", "grid"),
                )
    for mode in ("bilinear", "nearest"):
        for pad in ("zeros", "reflection"):
            table[f"grid_sample_3d_{mode}_{pad}"] = (
                lambda x, g, m=mode, p=pad: F.grid_sample(x, g, m, p, False),
                ("x5", "grid5"),
            )
    return table


def check_recorded(name):
    """engine's value and gradients for a recorded case against PyTorch's (tests/fixtures/conv.json)."""
    import json
    import pathlib
    import warnings

    import engine
    import engine.nn.functional as F
    import numpy as np

    fixture = _FIXTURE.get("data")
    if fixture is None:
        path = pathlib.Path(__file__).parents[1] / "fixtures" / "conv.json"
        _FIXTURE["data"] = fixture = json.loads(path.read_text())
    fn, keys = cases(F)[name]
    inputs = [
        engine.tensor(fixture["data"][k], dtype=engine.float64, requires_grad=True) for k in keys
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = fn(*inputs)
    expected = fixture["cases"][name]
    np.testing.assert_allclose(np.array(out.tolist()), np.array(expected["value"]), atol=1e-10)
    weights = engine.linspace(-1, 1, out.numel(), dtype=out.dtype).reshape(out.shape)
    # grid_sample's nearest mode has no path to the grid: PyTorch's zero gradient is None here.
    grads = engine.autograd.grad((out * weights).sum(), inputs, allow_unused=True)
    for got, want in zip(grads, expected["grads"]):
        got = np.zeros(np.shape(want)) if got is None else np.array(got.tolist())
        np.testing.assert_allclose(got, np.array(want), atol=1e-10)


_FIXTURE = {}
