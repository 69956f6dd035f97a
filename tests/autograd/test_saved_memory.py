"""engine.autograd.graph.saved_memory: bytes the graph behind a tensor keeps in saved tensors and
ctx attributes, per node and per Function class, each storage counted once."""

import engine as torch
import numpy as np
import pytest
from engine.autograd.graph import SavedMemoryReport, saved_memory


class Keep(torch.autograd.Function):
    """Saves its inputs and keeps extra state on ctx, the way Functions that bloat memory do."""

    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        ctx.doubled = x * 2  # a new tensor kept as a plain attribute
        ctx.pieces = [x[1:], np.zeros(10)]  # a view of x (no new storage) and an array
        ctx.scale = 3  # not memory worth counting
        return x * w

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        return grad * w, grad * x


class SaveTwice(torch.autograd.Function):
    """New style: saves the same storage three ways (itself, a view, a detached alias)."""

    @staticmethod
    def forward(x):
        return x.clone()

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x, x[:2], x.detach())

    @staticmethod
    def backward(ctx, grad):
        return grad


def leaves(n=100):
    torch.manual_seed(0)
    return torch.randn(n, requires_grad=True), torch.randn(n, requires_grad=True)


def test_custom_function_saved_tensors_and_ctx_attributes():
    x, w = leaves()
    report = saved_memory(Keep.apply(x, w))
    assert isinstance(report, SavedMemoryReport)
    (row,) = report.nodes
    assert row.function == "Keep" and row.name == "KeepBackward"
    names = [t.name for t in row.tensors]
    assert names == [
        "saved_tensors[0]",
        "saved_tensors[1]",
        "ctx.doubled",
        "ctx.pieces[0]",
        "ctx.pieces[1]",
    ]
    sizes = {t.name: (t.shape, t.nbytes, t.storage_bytes) for t in row.tensors}
    assert sizes["saved_tensors[0]"] == ((100,), 400, 400)
    assert sizes["ctx.pieces[0]"] == ((99,), 396, 400)  # a view keeps its base's storage alive
    assert sizes["ctx.pieces[1]"] == ((10,), 80, 80)
    # x, w, doubled and the array; the view of x adds nothing
    assert row.bytes == 400 + 400 + 400 + 80
    assert report.per_class == {"Keep": 1280}
    assert report.per_node == {row.node: 1280}
    assert report.total_bytes == 1280
    assert report.leaf_bytes == 800  # x and w are leaves: alive anyway
    assert report.counts == {"Keep": 1}


def test_shared_storage_is_counted_once():
    x, _ = leaves(50)
    report = saved_memory(SaveTwice.apply(x))
    (row,) = report.nodes
    assert [t.nbytes for t in row.tensors] == [200, 8, 200]
    assert row.bytes == 200
    assert report.total_bytes == 200


def test_builtin_nodes_and_classes_across_the_graph():
    x, w = leaves()
    y = (Keep.apply(x, w) * x).exp().sum()
    report = saved_memory(y)
    assert [r.name for r in report.nodes] == [
        "SumBackward0",
        "ExpBackward0",
        "MulBackward0",
        "KeepBackward",
    ]
    assert report.per_class["ExpBackward0"] == 400  # its result
    assert report.per_class["MulBackward0"] == 800  # the Function's output and x
    assert report.per_class["Keep"] == 1280
    assert list(report.per_class)[0] == "Keep"  # largest first
    # x is saved by Keep and by the multiplication: once in the total
    assert report.total_bytes == 400 + 400 + 400 + 80 + 400 + 400


def test_a_leak_after_backward_shows_as_ctx_attributes():
    x, w = leaves()
    y = Keep.apply(x, w).sum()
    y.backward()
    report = saved_memory(y)
    row = next(r for r in report.nodes if r.function == "Keep")
    freed = [t for t in row.tensors if t.freed]
    assert [t.name for t in freed] == ["saved_tensors"]
    assert freed[0].nbytes == 0 and "freed" in repr(freed[0])
    # save_for_backward tensors are gone; what was kept on ctx stays: the leak users look for
    assert row.bytes == 400 + 400 + 80
    assert report.per_class["SumBackward0"] == 0


def test_report_prints_a_table():
    x, w = leaves()
    text = str(saved_memory(Keep.apply(x, w).exp()))
    assert (
        text.splitlines()[0]
        == "saved for backward: 1.6 KiB in 2 nodes (800 B of it leaves' storage)"
    )
    assert "per Function class" in text and "per node" in text
    assert "Keep" in text and "ExpBackward0" in text
    assert "saved_tensors[0]" in text and "(100,)" in text and "float32" in text
    assert "ctx.pieces[1]" in text and "float64" in text
    assert repr(saved_memory(Keep.apply(x, w))).startswith("SavedMemoryReport(total_bytes=1280")


def test_several_outputs_share_one_report():
    x, w = leaves()
    a, b = x.exp(), Keep.apply(x, w)
    report = saved_memory([a, b])
    assert set(report.per_class) == {"ExpBackward0", "Keep"}
    assert report.total_bytes == 400 + 1280


def test_tensor_without_history_has_an_empty_report():
    x, _ = leaves()
    for t in (x, x.detach() * 2):
        report = saved_memory(t)
        assert report.nodes == [] and report.total_bytes == 0 and report.per_class == {}


def test_bad_argument_raises_type_error():
    with pytest.raises(TypeError, match=r"saved_memory\(\): expected a Tensor"):
        saved_memory(3.0)
    with pytest.raises(TypeError, match=r"got list"):
        saved_memory([[torch.ones(1)]])


def test_deep_graph_needs_no_recursion():
    x = torch.randn(3, requires_grad=True)
    y = x
    for _ in range(3000):
        y = y.exp().log()
    report = saved_memory(y)
    assert report.counts == {"LogBackward0": 3000, "ExpBackward0": 3000}
    assert report.per_class["ExpBackward0"] == 3000 * 12
