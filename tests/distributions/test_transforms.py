"""Transforms (inverse, log |det J| against autograd Jacobians, caching, shapes, equality),
constraints (checks, reprs, event dims) and the biject_to / transform_to registries."""

import engine
import engine.distributions as D
import numpy as np
import pytest
from engine.distributions import constraints
from engine.distributions import transforms as T
from engine.distributions.constraint_registry import biject_to, transform_to

F64 = engine.float64


def _jacobian_logdet(transform, x):
    """log |det dy/dx| of one event, by building the Jacobian column by column with autograd."""
    x = x.detach().requires_grad_()
    y = transform(x)
    rows = [
        engine.autograd.grad(y.reshape(-1)[i], x, retain_graph=True)[0].reshape(-1)
        for i in range(y.numel())
    ]
    jac = engine.stack(rows)
    return float(np.linalg.slogdet(jac.numpy())[1]) if jac.shape[0] == jac.shape[1] else None


ELEMENTWISE = [
    T.ExpTransform(),
    T.SigmoidTransform(),
    T.TanhTransform(),
    T.SoftplusTransform(),
    T.AffineTransform(0.5, -2.0),
    T.AffineTransform(
        engine.tensor([0.1, 0.2, 0.3], dtype=F64), engine.tensor([1.5, -0.5, 2.0], dtype=F64)
    ),
    T.ExpTransform().inv,
    T.ComposeTransform([T.ExpTransform(), T.AffineTransform(1.0, 3.0)]),
]


@pytest.mark.parametrize("transform", ELEMENTWISE, ids=repr)
def test_elementwise_inverse_and_log_det(transform):
    x = engine.tensor([0.3, -0.4, 1.1], dtype=F64)
    if isinstance(transform, T._InverseTransform):
        x = x.exp()  # log is defined on positives
    y = transform(x)
    np.testing.assert_allclose(transform.inv(y).numpy(), x.numpy(), rtol=1e-10, atol=1e-12)
    ladj = transform.log_abs_det_jacobian(x, y)
    expected = _jacobian_logdet(transform, x)
    np.testing.assert_allclose(ladj.sum().item(), expected, rtol=1e-8)


def test_power_transform():
    tr = T.PowerTransform(engine.tensor(2.5, dtype=F64))
    x = engine.tensor([0.3, 1.4, 2.0], dtype=F64)
    y = tr(x)
    np.testing.assert_allclose(y.numpy(), x.numpy() ** 2.5)
    np.testing.assert_allclose(tr.inv(y).numpy(), x.numpy())
    np.testing.assert_allclose(
        tr.log_abs_det_jacobian(x, y).numpy(), np.log(2.5 * x.numpy() ** 1.5)
    )
    assert tr == T.PowerTransform(engine.tensor(2.5, dtype=F64)) and tr != T.PowerTransform(
        engine.tensor(2.0)
    )


@pytest.mark.parametrize(
    "transform", [T.StickBreakingTransform(), T.CorrCholeskyTransform()], ids=repr
)
def test_vector_transforms_round_trip_and_log_det(transform):
    engine.manual_seed(0)
    x = engine.randn(3, dtype=F64)
    y = transform(x)
    np.testing.assert_allclose(transform.inv(y).numpy(), x.numpy(), rtol=1e-9, atol=1e-12)
    assert transform.codomain.check(y).all()
    if isinstance(transform, T.StickBreakingTransform):
        # Jacobian of the first K-1 coordinates (the last is determined by the simplex).
        crop = T.ComposeTransform([transform])
        xr = x.detach().requires_grad_()
        out = crop(xr)[:-1]
        jac = engine.stack(
            [engine.autograd.grad(out[i], xr, retain_graph=True)[0] for i in range(3)]
        )
        expected = np.linalg.slogdet(jac.numpy())[1]
    else:
        # Jacobian onto the strictly lower entries.
        xr = x.detach().requires_grad_()
        out = D.utils.tril_matrix_to_vec(transform(xr), diag=-1)
        jac = engine.stack(
            [engine.autograd.grad(out[i], xr, retain_graph=True)[0] for i in range(3)]
        )
        expected = np.linalg.slogdet(jac.numpy())[1]
    np.testing.assert_allclose(transform.log_abs_det_jacobian(x, y).item(), expected, rtol=1e-8)


def test_softmax_lower_cholesky_positive_definite():
    x = engine.tensor([[0.3, -1.0], [0.5, 0.2]], dtype=F64)
    s = T.SoftmaxTransform()(x)
    np.testing.assert_allclose(s.sum(-1).numpy(), [1.0, 1.0])
    L = T.LowerCholeskyTransform()(x)
    assert constraints.lower_cholesky.check(L).item()
    np.testing.assert_allclose(T.LowerCholeskyTransform().inv(L).numpy(), x.tril().numpy())
    P = T.PositiveDefiniteTransform()(x)
    assert constraints.positive_definite.check(P).item()
    np.testing.assert_allclose(
        T.PositiveDefiniteTransform().inv(P).numpy(), x.tril().numpy(), atol=1e-12
    )


def test_cache_returns_the_same_object():
    tr = T.ExpTransform(cache_size=1)
    x = engine.randn(3)
    y = tr(x)
    assert tr.inv(y) is x
    assert tr(x) is y
    assert T.ExpTransform().with_cache(1)._cache_size == 1
    assert T.ComposeTransform([T.ExpTransform()], cache_size=1).parts[0]._cache_size == 1


def test_shapes_and_event_dims():
    assert T.StickBreakingTransform().forward_shape((4, 3)) == (4, 4)
    assert T.StickBreakingTransform().inverse_shape((4, 4)) == (4, 3)
    assert T.CorrCholeskyTransform().forward_shape((2, 6)) == (2, 4, 4)
    with pytest.raises(ValueError, match="flattened lower-diagonal"):
        T.CorrCholeskyTransform().forward_shape((5,))
    r = T.ReshapeTransform((2, 3), (6,))
    assert r.forward_shape((5, 2, 3)) == (5, 6) and r(engine.zeros(5, 2, 3)).shape == (5, 6)
    with pytest.raises(ValueError, match="different numbers of elements"):
        T.ReshapeTransform((2, 3), (5,))
    assert T.AffineTransform(0.0, engine.ones(4, 1)).forward_shape((3,)) == (4, 3)
    ind = T.IndependentTransform(T.ExpTransform(), 1)
    assert ind.log_abs_det_jacobian(engine.ones(2, 3), engine.ones(2, 3)).shape == (2,)
    assert ind.domain.event_dim == 1
    assert T.StickBreakingTransform().event_dim == 1
    with pytest.raises(ValueError, match="Please use either"):
        _ = T.CorrCholeskyTransform().event_dim


def test_cat_and_stack_transforms():
    x = engine.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]], dtype=F64)
    cat = T.CatTransform([T.ExpTransform(), T.AffineTransform(1.0, 2.0)], dim=1, lengths=[2, 1])
    y = cat(x)
    np.testing.assert_allclose(y[:, :2].numpy(), np.exp(x[:, :2].numpy()))
    np.testing.assert_allclose(y[:, 2].numpy(), 1 + 2 * x[:, 2].numpy())
    np.testing.assert_allclose(cat.inv(y).numpy(), x.numpy())
    stack = T.StackTransform([T.ExpTransform(), T.SigmoidTransform()], dim=0)
    z = stack(x)
    np.testing.assert_allclose(stack.inv(z).numpy(), x.numpy(), rtol=1e-12)
    assert stack.log_abs_det_jacobian(x, z).shape == x.shape


def test_transform_equality_sign_and_repr():
    assert T.ExpTransform() == T.ExpTransform() and T.ExpTransform().inv == T.ExpTransform().inv
    assert T.AffineTransform(1.0, 2.0) == T.AffineTransform(1.0, 2.0) != T.AffineTransform(1.0, 3.0)
    assert T.AffineTransform(0.0, -2.0).sign == -1 and T.ExpTransform().sign == 1
    assert T.ComposeTransform([T.AffineTransform(0.0, -1.0), T.ExpTransform()]).sign == -1
    assert repr(T.ExpTransform().inv) == "_InverseTransform(ExpTransform())"
    assert (
        repr(T.ComposeTransform([T.ExpTransform()])) == "ComposeTransform(\n    ExpTransform()\n)"
    )
    with pytest.raises(ValueError, match="cache_size must be 0 or 1"):
        T.ExpTransform(cache_size=3)


def test_cumulative_distribution_transform():
    normal = D.Normal(engine.tensor(0.0, dtype=F64), engine.tensor(1.0, dtype=F64))
    tr = T.CumulativeDistributionTransform(normal)
    x = engine.tensor([-1.0, 0.0, 2.0], dtype=F64)
    np.testing.assert_allclose(tr(x).numpy(), normal.cdf(x).numpy())
    np.testing.assert_allclose(tr.inv(tr(x)).numpy(), x.numpy(), atol=1e-12)
    np.testing.assert_allclose(
        tr.log_abs_det_jacobian(x, tr(x)).numpy(), normal.log_prob(x).numpy()
    )


CONSTRAINTS = [
    (constraints.real, [0.0, float("nan")], [True, False], "Real()"),
    (constraints.positive, [0.0, 1.0], [False, True], "GreaterThan(lower_bound=0.0)"),
    (constraints.nonnegative, [0.0, -1.0], [True, False], "GreaterThanEq(lower_bound=0.0)"),
    (constraints.unit_interval, [0.0, 1.5], [True, False], "Interval(lower_bound=0.0, upper_bound=1.0)"),
    (constraints.half_open_interval(0, 1), [0.0, 1.0], [True, False], "HalfOpenInterval(lower_bound=0, upper_bound=1)"),
    (constraints.less_than(2.0), [1.0, 2.0], [True, False], "LessThan(upper_bound=2.0)"),
    (constraints.boolean, [0.0, 0.5], [True, False], "Boolean()"),
    (constraints.nonnegative_integer, [3.0, 1.5], [True, False], "IntegerGreaterThan(lower_bound=0)"),
    (constraints.positive_integer, [0.0, 2.0], [False, True], "IntegerGreaterThan(lower_bound=1)"),
    (constraints.integer_interval(0, 3), [3.0, 4.0], [True, False], "IntegerInterval(lower_bound=0, upper_bound=3)"),
]  # fmt: skip


@pytest.mark.parametrize(
    "constraint,values,expected,text", CONSTRAINTS, ids=[c[3] for c in CONSTRAINTS]
)
def test_constraint_checks_and_reprs(constraint, values, expected, text):
    assert constraint.check(engine.tensor(values)).tolist() == expected
    assert repr(constraint) == text
    assert constraint.event_dim == 0


def test_event_constraints():
    assert constraints.simplex.check(engine.tensor([[0.2, 0.8], [0.5, 0.6]])).tolist() == [
        True,
        False,
    ]
    assert constraints.one_hot.check(engine.tensor([[0.0, 1.0], [1.0, 1.0]])).tolist() == [
        True,
        False,
    ]
    assert constraints.real_vector.check(
        engine.tensor([[0.0, 1.0], [1.0, float("nan")]])
    ).tolist() == [True, False]
    assert (
        repr(constraints.real_vector) == "IndependentConstraint(Real(), 1)"
        and constraints.real_vector.event_dim == 1
    )
    assert constraints.lower_cholesky.check(engine.tensor([[1.0, 0.0], [2.0, 3.0]])).item()
    assert not constraints.lower_cholesky.check(engine.tensor([[1.0, 1.0], [2.0, 3.0]])).item()
    assert constraints.corr_cholesky.check(engine.tensor([[1.0, 0.0], [0.6, 0.8]])).item()
    assert constraints.positive_definite.check(engine.tensor([[2.0, 1.0], [1.0, 2.0]])).item()
    assert not constraints.positive_definite.check(engine.tensor([[1.0, 2.0], [2.0, 1.0]])).item()
    assert constraints.positive_semidefinite.check(engine.tensor([[1.0, 1.0], [1.0, 1.0]])).item()
    assert not constraints.symmetric.check(engine.tensor([[1.0, 2.0], [0.0, 1.0]])).item()
    assert constraints.multinomial(3).check(engine.tensor([1.0, 2.0])).item()
    cat = constraints.cat([constraints.positive, constraints.real], dim=0, lengths=[1, 2])
    assert cat.check(engine.tensor([1.0, -1.0, -2.0])).tolist() == [True, True, True]
    stack = constraints.stack([constraints.positive, constraints.unit_interval], dim=0)
    assert stack.check(engine.tensor([2.0, 2.0])).tolist() == [True, False]
    assert constraints.is_dependent(constraints.dependent) and not constraints.is_dependent(
        constraints.real
    )
    with pytest.raises(ValueError, match="Cannot determine validity of dependent constraint"):
        constraints.dependent.check(engine.ones(1))
    with pytest.raises(NotImplementedError, match="cannot be determined statically"):
        _ = constraints.dependent.event_dim


REGISTRY_CASES = [
    constraints.real,
    constraints.positive,
    constraints.nonnegative,
    constraints.greater_than(1.5),
    constraints.greater_than_eq(-2.0),
    constraints.less_than(3.0),
    constraints.unit_interval,
    constraints.interval(-1.0, 4.0),
    constraints.half_open_interval(2.0, 5.0),
    constraints.simplex,
    constraints.corr_cholesky,
    constraints.real_vector,
    constraints.independent(constraints.positive, 1),
]


@pytest.mark.parametrize("constraint", REGISTRY_CASES, ids=repr)
@pytest.mark.parametrize("registry", [biject_to, transform_to], ids=["biject_to", "transform_to"])
def test_registry_maps_reals_into_the_constraint(registry, constraint):
    engine.manual_seed(0)
    transform = registry(constraint)
    x = engine.randn(4, 6 if constraint is constraints.corr_cholesky else 3, dtype=F64)
    y = transform(x)
    assert constraint.check(y).all()
    if registry is biject_to:
        np.testing.assert_allclose(transform.inv(y).numpy(), x.numpy(), rtol=1e-8, atol=1e-10)


def test_transform_to_matrix_constraints_and_errors():
    x = engine.randn(3, 3, dtype=F64)
    assert constraints.lower_cholesky.check(transform_to(constraints.lower_cholesky)(x)).item()
    assert constraints.positive_definite.check(
        transform_to(constraints.positive_definite)(x)
    ).item()
    assert isinstance(transform_to(constraints.simplex), T.SoftmaxTransform)
    assert isinstance(biject_to(constraints.simplex), T.StickBreakingTransform)
    with pytest.raises(NotImplementedError, match="Cannot transform _Boolean constraints"):
        biject_to(constraints.boolean)
    with pytest.raises(
        TypeError, match="Expected constraint to be either a Constraint subclass or instance"
    ):
        biject_to.register(int, lambda c: None)


def test_registered_constraint_lookup_by_type():
    class Positive2(constraints._GreaterThan):
        pass

    registry = D.constraint_registry.ConstraintRegistry()

    @registry.register(Positive2)
    def _factory(constraint):
        return T.ExpTransform()

    assert isinstance(registry(Positive2(0.0)), T.ExpTransform)
