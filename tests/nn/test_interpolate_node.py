"""F.interpolate's node shows exactly PyTorch's saved attributes (recorded from PyTorch 2.13),
not those of the ops it is composed of."""

import engine
import engine.nn.functional as F
import pytest

CASES = [
    ((1, 2, 4), "nearest", {}, "UpsampleNearest1DBackward0",
     {"_saved_output_size": (6,), "_saved_scales": 1.5, "_saved_self_sym_sizes": (1, 2, 4)}),
    ((1, 2, 4), "linear", {}, "UpsampleLinear1DBackward0",
     {"_saved_align_corners": False, "_saved_output_size": (6,), "_saved_scales": 1.5,
      "_saved_self_sym_sizes": (1, 2, 4)}),
    ((1, 2, 4, 4, 4), "trilinear", {}, "UpsampleTrilinear3DBackward0",
     {"_saved_align_corners": False, "_saved_output_size": (6, 6, 6), "_saved_scales_d": 1.5,
      "_saved_scales_h": 1.5, "_saved_scales_w": 1.5, "_saved_self_sym_sizes": (1, 2, 4, 4, 4)}),
    ((1, 2, 4, 4), "bicubic", {}, "UpsampleBicubic2DBackward0",
     {"_saved_align_corners": False, "_saved_output_size": (6, 6), "_saved_scales_h": 1.5,
      "_saved_scales_w": 1.5, "_saved_self_sym_sizes": (1, 2, 4, 4)}),
    ((1, 2, 4, 4), "nearest-exact", {}, "UpsampleNearestExact2DBackward0",
     {"_saved_output_size": (6, 6), "_saved_scales_h": 1.5, "_saved_scales_w": 1.5,
      "_saved_self_sym_sizes": (1, 2, 4, 4)}),
    ((1, 2, 4, 4), "bilinear", {"recompute_scale_factor": True}, "UpsampleBilinear2DBackward0",
     {"_saved_align_corners": False, "_saved_output_size": (6, 6), "_saved_scales_h": None,
      "_saved_scales_w": None, "_saved_self_sym_sizes": (1, 2, 4, 4)}),
]  # fmt: skip


@pytest.mark.parametrize("shape, mode, kwargs, name, saved", CASES)
def test_interpolate_node_shows_pytorchs_attributes(shape, mode, kwargs, name, saved):
    x = engine.randn(*shape, requires_grad=True)
    fn = F.interpolate(x, scale_factor=1.5, mode=mode, **kwargs).grad_fn
    assert type(fn).__name__ == name
    assert {n: getattr(fn, n) for n in dir(fn) if n.startswith("_saved")} == saved
    with pytest.raises(AttributeError):
        _ = fn._saved_index  # the composed gather's own attribute is not shown


def test_interpolate_to_a_size_with_aligned_corners():
    x = engine.randn(1, 2, 4, 4, requires_grad=True)
    y = F.interpolate(x, size=(5, 6), mode="bilinear", align_corners=True)
    f = y.grad_fn
    assert (f._saved_align_corners, f._saved_output_size) == (True, (5, 6))
    assert (f._saved_scales_h, f._saved_scales_w) == (None, None)
    y.sum().backward()  # the node still computes the composition's gradient
    assert x.grad.shape == x.shape and abs(x.grad.sum().item() - 60.0) < 1e-4
