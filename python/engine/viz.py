"""The autograd graph behind a tensor as a Graphviz picture: ``engine.viz.make_dot``.

The signature is torchviz's (``make_dot(var, params=None, show_attrs=False, show_saved=False,
max_attr_chars=50)``), so code written for it runs unchanged. Boxes, from the output down:

* the output tensor(s), green; a view's base, darker green, joined by a dotted line;
* built-in nodes, named by their class (``MulBackward0``), grey;
* custom Function nodes, named by the Function's class (``MyQuantize``), yellow;
* ``AccumulateGrad`` nodes and the leaves they fill, blue, a leaf named from ``params``
  (``dict(model.named_parameters())``);
* with ``show_saved``: each saved tensor (``save_for_backward``, tensor ctx attributes, a
  built-in node's ``_saved_<name>``), orange, with its shape, dtype and bytes.

The ``graphviz`` package (``pip install graphviz``) makes the result a ``graphviz.Digraph``
(``.render``, ``.pipe``, shown inline in Jupyter; rendering needs Graphviz's ``dot`` program).
Without it, ``make_dot`` still returns the graph as DOT text in an object with ``.source`` and
``.save(path)``; only rendering raises ``ImportError``.
"""

from engine import _C
from engine.autograd import _saved_memory as _saved

__all__ = ["DotSource", "make_dot"]

NODE_ATTR = {
    "style": "filled",
    "shape": "box",
    "align": "left",
    "fontsize": "10",
    "ranksep": "0.1",
    "height": "0.2",
    "fontname": "monospace",
}
GRAPH_ATTR = {"size": "12,12"}

OUTPUT_COLOR = "darkolivegreen1"
VIEW_BASE_COLOR = "darkolivegreen3"
LEAF_COLOR = "lightblue"
SAVED_COLOR = "orange"
CUSTOM_COLOR = "lightgoldenrod1"
BUILTIN_COLOR = "lightgrey"


def _esc(text):
    """Text made safe inside a quoted DOT string (both the graphviz package and ``DotSource``
    pass backslash sequences through, so labels use ``\\n`` for line breaks)."""
    return str(text).replace("\\", "\\\\").replace('"', '\\"')


def _label(*lines):
    return "\\n".join(_esc(line) for line in lines if line is not None)


def _shape_str(shape):
    return "(" + ", ".join(str(int(n)) for n in shape) + ")"


class DotSource:
    """A graph as DOT text, what ``make_dot`` returns when the ``graphviz`` package is missing.

    ``.source`` is the text (also ``str(obj)``); ``.save(path)`` writes it, for
    ``dot -Tpng path -o graph.png``. ``render``, ``pipe`` and ``view`` need the package."""

    def __init__(self, statements, node_attr, graph_attr):
        self._statements = statements
        self.node_attr = dict(node_attr)
        self.graph_attr = dict(graph_attr)

    @property
    def source(self):
        def attrs(d):
            return " ".join(f'{k}="{_esc(v)}"' for k, v in d.items())

        lines = ["digraph {"]
        lines.append(f"\tgraph [{attrs(self.graph_attr)}]")
        lines.append(f"\tnode [{attrs(self.node_attr)}]")
        for kind, args, kwargs in self._statements:
            # labels arrive escaped already (see _label); other values are plain words
            parts = [
                f'{k}="{v}"' if k == "label" else f'{k}="{_esc(v)}"' for k, v in kwargs.items()
            ]
            head = f"{args[0]} -> {args[1]}" if kind == "edge" else args[0]
            lines.append(f"\t{head} [{' '.join(parts)}]" if parts else f"\t{head}")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def __str__(self):
        return self.source

    def __repr__(self):
        return f"<DotSource: {len(self._statements)} statements; .source holds the DOT text>"

    def save(self, filename):
        """Writes the DOT text to ``filename``; returns the path."""
        with open(filename, "w", encoding="utf-8") as f:
            f.write(self.source)
        return filename

    def _missing(self, *args, **kwargs):
        """Rendering needs the graphviz package: raises ``ImportError`` saying so."""
        raise ImportError(
            "make_dot: rendering the graph needs the graphviz package (pip install graphviz) "
            "and Graphviz's dot program; the DOT text is in .source"
        )

    render = pipe = view = _repr_mimebundle_ = _repr_svg_ = _missing


class _Builder:
    """Collects the graph's node and edge statements, giving each object one stable id."""

    def __init__(self):
        self.statements = []
        self.ids = {}
        self.keep = []  # holds every object named, so no id() is reused while building

    def id_of(self, obj, key=None):
        key = id(obj) if key is None else key
        if key not in self.ids:
            self.ids[key] = f"n{len(self.ids)}"
            self.keep.append(obj)
        return self.ids[key]

    def seen(self, obj):
        return id(obj) in self.ids

    def node(self, name, label, **attrs):
        self.statements.append(("node", (name,), {"label": label, **attrs}))

    def edge(self, tail, head, **attrs):
        self.statements.append(("edge", (tail, head), attrs))


def _tensor_lines(t, name):
    dtype = _saved.format_dtype(t.dtype)
    return (name or None, f"{_shape_str(t.shape)} {dtype}")


def _attr_lines(node, show_attrs, max_attr_chars):
    """``name=value`` lines for a custom Function's non-tensor ctx attributes."""
    if not show_attrs or not _saved.is_custom_node(node):
        return []
    lines = []
    for name, value in sorted(_saved.ctx_attributes(node).items()):
        if _C.is_tensor(value) or value is _saved._FREED:
            continue
        text = repr(value)
        if len(text) > max_attr_chars:
            text = text[: max(max_attr_chars - 3, 0)] + "..."
        lines.append(f"{name}={text}")
    return lines


def make_dot(var, params=None, show_attrs=False, show_saved=False, max_attr_chars=50):
    """Draws the autograd graph that produced ``var`` (a tensor, or a tuple/list of them).

    Args:
        var: the output(s) whose history to draw.
        params: optional ``{name: tensor}`` naming the leaves, e.g.
            ``dict(model.named_parameters())``.
        show_attrs: list each custom Function node's non-tensor ctx attributes.
        show_saved: draw each node's saved tensors with shape, dtype and bytes.
        max_attr_chars: longest attribute text shown before it is cut with ``...``.

    Returns a ``graphviz.Digraph`` when the ``graphviz`` package is installed, otherwise a
    ``DotSource`` holding the same graph as DOT text (``.source``).

    Example::

        dot = engine.viz.make_dot(model(x).sum(), params=dict(model.named_parameters()))
        dot.render("graph", format="png")      # needs graphviz's ``dot`` program
    """
    if params is None:
        names = {}
    else:
        if not hasattr(params, "items"):
            raise TypeError(
                f"make_dot(): params must be a dict of name -> Tensor, got {type(params).__name__}"
            )
        for k, v in params.items():
            if not _C.is_tensor(v):
                raise TypeError(
                    f"make_dot(): params[{k!r}] must be a Tensor, got {type(v).__name__}"
                )
        names = {id(v): k for k, v in params.items()}
    outputs = tuple(var) if isinstance(var, (tuple, list)) else (var,)
    for v in outputs:
        if not _C.is_tensor(v):
            raise TypeError(
                f"make_dot(): var must be a Tensor or a tuple of Tensors, got {type(v).__name__}"
            )

    b = _Builder()
    grad_fns = []
    for out in outputs:
        _add_output(b, out, names, grad_fns, OUTPUT_COLOR)
    for node in _saved.walk(grad_fns):
        _add_node(b, node, names, show_attrs, show_saved, max_attr_chars)
    return _to_graph(b.statements)


def _add_output(b, t, names, grad_fns, color):
    if b.seen(t):
        return
    tid = b.id_of(t)
    b.node(tid, _label(*_tensor_lines(t, names.get(id(t), ""))), fillcolor=color)
    if t.grad_fn is not None:
        grad_fns.append(t.grad_fn)
        b.edge(b.id_of(t.grad_fn), tid)
    if t._is_view() and t._base is not None:
        _add_output(b, t._base, names, grad_fns, VIEW_BASE_COLOR)
        b.edge(b.id_of(t._base), tid, style="dotted")


def _add_node(b, node, names, show_attrs, show_saved, max_attr_chars):
    nid = b.id_of(node)
    custom = _saved.is_custom_node(node)
    if custom:
        title = _saved.function_class_name(node)
        color = CUSTOM_COLOR
    else:
        title = _saved.node_label(node)
        color = LEAF_COLOR if title == "AccumulateGrad" else BUILTIN_COLOR
    b.node(nid, _label(title, *_attr_lines(node, show_attrs, max_attr_chars)), fillcolor=color)

    leaf = getattr(node, "variable", None) if title == "AccumulateGrad" else None
    if leaf is not None:
        lid = b.id_of(leaf)
        b.node(lid, _label(*_tensor_lines(leaf, names.get(id(leaf), ""))), fillcolor=LEAF_COLOR)
        b.edge(lid, nid)
    for nxt, _ in node.next_functions:
        if nxt is not None:
            b.edge(b.id_of(nxt), nid)
    if show_saved:
        for i, info in enumerate(_saved.saved_tensors_of(node)):
            sid = b.id_of(info, key=("saved", id(node), i))
            if info.freed:
                label = _label(info.name, "(freed by backward)")
            else:
                label = _label(
                    info.name,
                    f"{_shape_str(info.shape)} {_saved.format_dtype(info.dtype)}",
                    _saved.format_bytes(info.nbytes),
                )
            b.node(sid, label, fillcolor=SAVED_COLOR)
            b.edge(nid, sid, dir="none", style="dashed")


def _to_graph(statements):
    try:
        import graphviz
    except ImportError:
        return DotSource(statements, NODE_ATTR, GRAPH_ATTR)
    dot = graphviz.Digraph(node_attr=NODE_ATTR, graph_attr=GRAPH_ATTR)
    for kind, args, kwargs in statements:
        getattr(dot, kind)(*args, **kwargs)
    return dot
