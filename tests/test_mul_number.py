"""Tensor * Python number, applied as a value: the results, nodes and saved values it leaves."""

import engine as T
import numpy as np
import pytest


@pytest.mark.parametrize("number", [2, 2.5, 0.1, -3, 2**40 + 1, 1e300])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_values_round_the_number_to_the_tensor_dtype_first(number, dtype):
    data = np.array([1.0, -2.5, 3.25, 7.0], dtype=dtype)
    x = T.tensor(data.tolist(), dtype=getattr(T, dtype))
    with np.errstate(over="ignore"):  # 1e300 is inf in float32, as PyTorch makes it
        expected = data * np.array(number, dtype=dtype)
    for got in (x * number, number * x):
        assert got.dtype == x.dtype
        np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize(
    "make",
    [
        lambda: T.arange(0.0, 12.0).reshape(3, 4).t(),  # transposed
        lambda: T.arange(0.0, 40000.0),  # large enough for the general loops
        lambda: T.tensor(3.0),  # 0-d
        lambda: T.zeros(0),  # empty
    ],
)
def test_layouts_agree_with_a_tensor_operand(make):
    x = make()
    expected = x * T.tensor(2.5)
    got = x * 2.5
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected.numpy())


def test_other_dtypes_keep_wrapped_number_promotion():
    assert (T.tensor([1, 2]) * 2.5).dtype == T.get_default_dtype()
    assert (T.tensor([1.0], dtype=T.float16) * 2.0).dtype == T.float16
    assert (T.tensor([200], dtype=T.uint8) * 2).dtype == T.uint8


def test_node_saves_the_number_as_pytorch_shows_it():
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2.5
    assert type(y.grad_fn).__name__ == "MulBackward0"
    assert y.grad_fn.next_functions[1] == (None, 0)
    assert y.grad_fn._saved_other.dtype == T.float64
    assert y.grad_fn._saved_other.item() == 2.5
    assert (3 * x).grad_fn._saved_other.dtype == T.int64
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.5, 2.5, 2.5])
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        _ = y.grad_fn._saved_other


def test_second_backward_without_retain_graph_is_refused():
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 3).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def test_retained_and_higher_order_gradients():
    x = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    y = (x * x * 3.0).sum()
    (g,) = T.autograd.grad(y, x, create_graph=True)
    np.testing.assert_array_equal(g.detach().numpy(), [6.0, 12.0])
    (h,) = T.autograd.grad(g.sum(), x)
    np.testing.assert_array_equal(h.numpy(), [6.0, 6.0])
    z = (x * 2).sum()
    z.backward(retain_graph=True)
    z.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 4.0])
