"""engine.viz.make_dot: the autograd graph as Graphviz. The DOT text (what is built without the
graphviz package) is the tested path; a PNG is rendered only where the package and Graphviz's
``dot`` program both exist."""

import re
import shutil
import subprocess
import sys

import engine as torch
import pytest
from engine.viz import DotSource, make_dot


class Scale(torch.autograd.Function):
    """Original style: forward(ctx, ...), a tensor and two plain values kept on ctx."""

    @staticmethod
    def forward(ctx, x, factor):
        ctx.save_for_backward(x)
        ctx.factor = factor
        ctx.note = "n" * 80
        return x * factor

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.factor, None


class Cube(torch.autograd.Function):
    """New style: forward without ctx, setup_context saves the input."""

    @staticmethod
    def forward(x):
        return x**3

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x**2


@pytest.fixture
def no_graphviz(monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", None)  # `import graphviz` now raises


def labels(source):
    """{node id: label} of the node statements in DOT text."""
    found = {}
    for m in re.finditer(r'^\t(n\d+) \[label=("(?:[^"\\]|\\.)*"|\S+)', source, re.M):
        found[m.group(1)] = m.group(2).strip('"')
    return found


def edges(source):
    return re.findall(r"^\t(n\d+) -> (n\d+)", source, re.M)


def model_graph():
    torch.manual_seed(0)
    w = torch.randn(3, 4, requires_grad=True)
    b = torch.randn(4, requires_grad=True)
    x = torch.randn(2, 3)
    y = Cube.apply(Scale.apply(x @ w + b, 2.0)).exp().sum()
    return y, {"weight": w, "bias": b}


def test_without_graphviz_returns_dot_text_with_every_node(no_graphviz):
    y, params = model_graph()
    dot = make_dot(y, params=params)
    assert isinstance(dot, DotSource)
    assert str(dot) == dot.source
    assert dot.source.startswith("digraph {")
    names = list(labels(dot.source).values())
    for expected in ("SumBackward0", "ExpBackward0", "Cube", "Scale", "AddBackward0"):
        assert expected in names
    assert "MmBackward0" in names or "MatmulBackward0" in names
    assert names.count("AccumulateGrad") == 2
    assert "weight\\n(3, 4) float32" in names
    assert "bias\\n(4) float32" in names
    assert "() float32" in names  # the output


def test_custom_nodes_are_named_by_their_class_and_coloured(no_graphviz):
    y, params = model_graph()
    source = make_dot(y, params=params).source
    assert re.search(r'\[label="Cube" fillcolor="lightgoldenrod1"\]', source)
    assert re.search(r'\[label="Scale" fillcolor="lightgoldenrod1"\]', source)
    assert re.search(r'\[label="ExpBackward0" fillcolor="lightgrey"\]', source)
    assert re.search(r'\[label="\(\) float32" fillcolor="darkolivegreen1"\]', source)


def test_edges_follow_next_functions(no_graphviz):
    a = torch.randn(3, requires_grad=True)
    y = (a * 2).exp()
    source = make_dot(y, params={"a": a}).source
    ids = {label: i for i, label in labels(source).items()}
    pairs = set(edges(source))
    assert (ids["MulBackward0"], ids["ExpBackward0"]) in pairs
    assert (ids["AccumulateGrad"], ids["MulBackward0"]) in pairs
    assert (ids["a\\n(3) float32"], ids["AccumulateGrad"]) in pairs
    assert (ids["ExpBackward0"], ids["(3) float32"]) in pairs


def test_a_node_reached_twice_is_drawn_once(no_graphviz):
    a = torch.randn(3, requires_grad=True)
    shared = a.exp()
    y = shared * shared + shared
    names = list(labels(make_dot(y).source).values())
    assert names.count("ExpBackward0") == 1
    assert names.count("AccumulateGrad") == 1


def test_show_saved_lists_shapes_dtypes_and_bytes(no_graphviz):
    x = torch.randn(3, 4, requires_grad=True)
    y = Scale.apply(x, 3.0).exp()
    source = make_dot(y, show_saved=True).source
    names = list(labels(source).values())
    assert "saved_tensors[0]\\n(3, 4) float32\\n48 B" in names
    assert "_saved_result\\n(3, 4) float32\\n48 B" in names
    assert 'dir="none" style="dashed"' in source
    without = list(labels(make_dot(y).source).values())
    assert not any("saved" in n for n in without)


def test_show_saved_after_backward_says_freed(no_graphviz):
    x = torch.randn(2, requires_grad=True)
    y = Scale.apply(x, 3.0).sum()
    y.backward()
    names = list(labels(make_dot(y, show_saved=True).source).values())
    assert "saved_tensors\\n(freed by backward)" in names


def test_show_attrs_lists_plain_ctx_attributes_cut_at_max_attr_chars(no_graphviz):
    x = torch.randn(2, requires_grad=True)
    y = Scale.apply(x, 3.0)
    plain = labels(make_dot(y).source)
    assert "Scale" in plain.values()
    label = next(
        v
        for v in labels(make_dot(y, show_attrs=True, max_attr_chars=20).source).values()
        if v.startswith("Scale")
    )
    lines = label.split("\\n")
    assert lines[0] == "Scale"
    assert "factor=3.0" in lines
    note = next(line for line in lines if line.startswith("note="))
    assert note == "note=" + "'" + "n" * 16 + "..."


def test_views_are_joined_to_their_base(no_graphviz):
    x = torch.randn(4, requires_grad=True)
    base = x * 2
    view = base[1:]
    source = make_dot(view).source
    assert "darkolivegreen3" in source
    assert 'style="dotted"' in source


def test_several_outputs_and_a_leaf_output(no_graphviz):
    a = torch.randn(2, requires_grad=True)
    source = make_dot((a.exp(), a.sin()), params={"a": a}).source
    names = list(labels(source).values())
    assert "ExpBackward0" in names and "SinBackward0" in names
    assert names.count("AccumulateGrad") == 1
    assert list(labels(make_dot(a, params={"a": a}).source).values()) == ["a\\n(2) float32"]


def test_deep_graph_needs_no_recursion(no_graphviz):
    x = torch.randn(2, requires_grad=True)
    y = x
    for _ in range(3000):
        y = y * 1.0
    assert list(labels(make_dot(y).source).values()).count("MulBackward0") == 3000


def test_quotes_and_backslashes_in_names_are_escaped(no_graphviz):
    a = torch.randn(2, requires_grad=True)
    source = make_dot(a.exp(), params={'w"eird\\name': a}).source
    assert 'label="w\\"eird\\\\name\\n(2) float32"' in source


def test_rendering_without_graphviz_raises_import_error(no_graphviz, tmp_path):
    dot = make_dot(torch.randn(2, requires_grad=True).exp())
    for method in ("render", "pipe", "view"):
        with pytest.raises(ImportError, match="pip install graphviz"):
            getattr(dot, method)()
    path = tmp_path / "graph.dot"
    assert dot.save(path) == path
    assert path.read_text() == dot.source
    assert "DotSource" in repr(dot)


def test_bad_arguments_raise_type_error():
    a = torch.randn(2, requires_grad=True)
    with pytest.raises(TypeError, match=r"make_dot\(\): var must be a Tensor"):
        make_dot([1.0])
    with pytest.raises(TypeError, match=r"make_dot\(\): params must be a dict"):
        make_dot(a.exp(), params=[a])
    with pytest.raises(TypeError, match=r"make_dot\(\): params\['a'\] must be a Tensor"):
        make_dot(a.exp(), params={"a": 1.0})


def test_with_graphviz_returns_a_digraph_of_the_same_graph(no_graphviz, monkeypatch):
    y, params = model_graph()
    text = make_dot(y, params=params, show_saved=True).source
    monkeypatch.delitem(sys.modules, "graphviz")
    graphviz = pytest.importorskip("graphviz")
    dot = make_dot(y, params=params, show_saved=True)
    assert isinstance(dot, graphviz.Digraph)
    assert sorted(labels(dot.source).values()) == sorted(labels(text).values())
    assert len(edges(dot.source)) == len(edges(text))


needs_dot = pytest.mark.skipif(
    shutil.which("dot") is None, reason="Graphviz's dot is not installed"
)


@needs_dot
def test_graphviz_renders_a_png():
    graphviz = pytest.importorskip("graphviz")
    y, params = model_graph()
    dot = make_dot(y, params=params, show_saved=True, show_attrs=True)
    assert isinstance(dot, graphviz.Digraph)
    png = dot.pipe(format="png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000


@needs_dot
def test_the_dot_text_is_valid_for_dot(no_graphviz, tmp_path):
    a = torch.randn(2, requires_grad=True)
    y = Scale.apply(a, 2.0).exp()
    path = make_dot(y, params={'q"uote\\d': a}, show_saved=True, show_attrs=True).save(
        tmp_path / "g.dot"
    )
    out = tmp_path / "g.png"
    subprocess.run(["dot", "-Tpng", str(path), "-o", str(out)], check=True, timeout=60)
    assert out.read_bytes()[:4] == b"\x89PNG"
