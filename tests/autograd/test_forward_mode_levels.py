"""forward_ad's dual tensors as PyTorch keeps them: a tangent that is itself dual at the level
is refused; out= variants have no tangent rule; an in-place write of a dual into a view of a
plain tensor makes the base dual, with the view's tangent a window into the base's, so later
in-place updates of the view reach the base's tangent."""

import engine
import engine.autograd.forward_ad as fwAD
import pytest


def test_tangent_that_is_itself_dual_is_refused():
    with fwAD.dual_level():
        dual = fwAD.make_dual(engine.rand(2), engine.rand(2))
        with pytest.raises(RuntimeError, match="itself has a forward gradient at the same level"):
            fwAD.make_dual(engine.rand(2), dual)


def test_out_variants_refuse_dual_tensors():
    with fwAD.dual_level():
        dual = fwAD.make_dual(engine.rand(2), engine.rand(2))
        plain = engine.rand(2)
        for args, out in (((plain, plain), dual), ((dual, plain), plain)):
            with pytest.raises(NotImplementedError, match="add_out .* because it is an out= "):
                engine.add(*args, out=out)


@pytest.mark.parametrize("op", ["add_", "mul_", "copy_"])
def test_inplace_into_a_view_makes_the_base_dual(op):
    base = engine.randn(2, 2, dtype=engine.float64)
    view = base.transpose(0, 1)
    primal = engine.randn(2, 2, dtype=engine.float64)
    tangent = engine.randn(2, 2, dtype=engine.float64)
    before = view.clone()
    with fwAD.dual_level():
        getattr(view, op)(fwAD.make_dual(primal, tangent))
        base_tangent = fwAD.unpack_dual(base).tangent
        view_tangent = fwAD.unpack_dual(view).tangent
        # d(view op x) along the tangent of x, for each op
        expected = {"add_": tangent, "mul_": before * tangent, "copy_": tangent}[op]
        assert engine.allclose(view_tangent, expected)
        assert engine.allclose(base_tangent, expected.transpose(0, 1))
        view *= 2
        assert engine.allclose(fwAD.unpack_dual(base).tangent, 2 * expected.transpose(0, 1))
        assert engine.allclose(fwAD.unpack_dual(base).primal, base)


def test_op_without_a_forward_rule_raises_not_implemented_error():
    with fwAD.dual_level():
        dual = fwAD.make_dual(engine.rand(3) + 0.5, engine.rand(3))
        with pytest.raises(NotImplementedError, match="Trying to use forward AD with igamma"):
            engine.igamma(dual, dual)
        with pytest.raises(RuntimeError, match="that does not support it"):
            engine.igamma(dual, dual)
