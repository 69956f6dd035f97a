"""How much memory the backward graph behind a tensor keeps alive: ``saved_memory(tensor)``.

Each node of the graph holds the tensors its backward needs: a built-in node its
``_saved_<name>`` tensors, a custom Function's ctx its ``save_for_backward`` tensors and any
tensors (or NumPy arrays, also inside lists, tuples and dicts) kept as plain ctx attributes. A
saved tensor keeps its whole storage alive (a view of a large tensor holds all of it), and several
tensors may share one storage (views, ``detach()``, an input saved by two nodes): the report
counts the bytes of each storage once per row.

The walk and the saved-tensor listing are shared with ``engine.viz``.
"""

from engine import _C

__all__ = ["SavedMemoryReport", "SavedTensorInfo", "NodeSavedMemory", "saved_memory"]

# The names built-in nodes expose saved tensors by (``grad_fn._saved_<name>``), as in PyTorch.
# Built-in nodes do not list them, so these are tried in turn; a node whose rule saves under
# another name shows no saved tensors here.
BUILTIN_SAVED_NAMES = (
    "self",
    "other",
    "result",
    "exponent",
    "input",
    "weight",
    "bias",
    "mat1",
    "mat2",
    "vec",
    "indices",
    "index",
    "mask",
    "src",
    "target",
    "mean",
    "rstd",
    "running_mean",
    "running_var",
    "grad_output",
    "values",
)


class SavedTensorInfo:
    """One saved tensor (or array) of a node: where it is kept and what it costs.

    ``name`` is how the node holds it (``_saved_self``, ``saved_tensors[0]``, ``ctx.cache``);
    ``nbytes`` the bytes of its own elements; ``storage_bytes`` the bytes of the whole storage it
    keeps alive; ``freed`` is true when backward already released it (sizes are then 0)."""

    __slots__ = ("name", "shape", "dtype", "nbytes", "storage_bytes", "freed", "value", "_span")

    def __init__(self, name, value=None, freed=False):
        self.name = name
        self.value = value
        self.freed = freed
        self.shape = None
        self.dtype = None
        self.nbytes = 0
        self.storage_bytes = 0
        self._span = None
        if value is not None:
            self.shape, self.dtype, self.nbytes, self._span = _describe(value)
            self.storage_bytes = self._span[1] - self._span[0]

    def __repr__(self):
        if self.freed:
            return f"SavedTensorInfo({self.name}: freed)"
        return (
            f"SavedTensorInfo({self.name}: shape={self.shape}, dtype={self.dtype}, "
            f"nbytes={self.nbytes}, storage_bytes={self.storage_bytes})"
        )


def _describe(value):
    """(shape, dtype, nbytes, (start, end) of the storage it keeps alive) of a tensor or array."""
    if _C.is_tensor(value):
        root = value
        while root._base is not None:
            root = root._base
        size = value.element_size()
        start = root.data_ptr()
        return tuple(value.shape), value.dtype, value.numel() * size, (start, start + _extent(root))
    # A NumPy array (or anything with the array interface): its base owns the memory.
    root = value
    while getattr(root, "base", None) is not None and hasattr(root.base, "__array_interface__"):
        root = root.base
    start = root.__array_interface__["data"][0]
    return tuple(value.shape), value.dtype, int(value.nbytes), (start, start + int(root.nbytes))


def _extent(t):
    """Bytes from a tensor's first element to just past its last, whatever its strides."""
    if t.numel() == 0:
        return 0
    last = sum((n - 1) * abs(s) for n, s in zip(t.shape, t.stride()))
    return (last + 1) * t.element_size()


def _union_bytes(spans):
    """Bytes covered by a set of (start, end) ranges, overlaps counted once."""
    total = 0
    end = None
    for lo, hi in sorted(spans):
        if end is None or lo >= end:
            total += hi - lo
            end = hi
        elif hi > end:
            total += hi - end
            end = hi
    return total


def _is_array(value):
    return not _C.is_tensor(value) and hasattr(value, "__array_interface__")


def _collect(name, value, out):
    """Appends ``value`` (a tensor or array, or one level of list/tuple/dict holding them)."""
    if _C.is_tensor(value) or _is_array(value):
        out.append(SavedTensorInfo(name, value))
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            if _C.is_tensor(v) or _is_array(v):
                out.append(SavedTensorInfo(f"{name}[{i}]", v))
    elif isinstance(value, dict):
        for k, v in value.items():
            if _C.is_tensor(v) or _is_array(v):
                out.append(SavedTensorInfo(f"{name}[{k!r}]", v))


def is_custom_node(node):
    """True for a custom Function's node (its ctx object)."""
    return isinstance(node, _C._FunctionCtx)


def ctx_attributes(ctx):
    """The attributes a custom Function's ctx was given, as (name, value): plain ones live in
    ``__dict__``; tensors were moved to native slots read through descriptors on its class."""
    items = {}
    for klass in type(ctx).__mro__:
        for name, attr in vars(klass).items():
            if isinstance(attr, _C._CtxTensorAttr) and name not in items:
                try:
                    items[name] = getattr(ctx, name)
                except AttributeError:  # another ctx of the class had it, not this one
                    pass
                except RuntimeError:  # modified in place or freed: its size is unknown now
                    items[name] = _FREED
    for name, value in getattr(ctx, "__dict__", {}).items():
        if name != "_metadata":
            items[name] = value
    return items


_FREED = object()


def saved_tensors_of(node):
    """The tensors (and arrays) ``node`` holds for its backward, as ``SavedTensorInfo`` entries."""
    out = []
    if is_custom_node(node):
        try:
            saved = node.saved_tensors
        except RuntimeError:  # freed by backward
            saved = ()
            out.append(SavedTensorInfo("saved_tensors", freed=True))
        for i, t in enumerate(saved):
            if t is not None:
                out.append(SavedTensorInfo(f"saved_tensors[{i}]", t))
        for name, value in ctx_attributes(node).items():
            if value is _FREED:
                out.append(SavedTensorInfo(f"ctx.{name}", freed=True))
            else:
                _collect(f"ctx.{name}", value, out)
        return out
    for name in BUILTIN_SAVED_NAMES:
        try:
            value = getattr(node, "_saved_" + name)
        except AttributeError:
            continue
        except RuntimeError:
            out.append(SavedTensorInfo("_saved_" + name, freed=True))
            continue
        if value is not None:
            _collect("_saved_" + name, value, out)
    return out


def walk(roots):
    """The nodes reachable from ``roots`` (graph nodes), each once, outputs first, without
    recursion (graphs may be deep)."""
    seen = set()
    order = []
    stack = [r for r in reversed(roots) if r is not None]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)  # keeps the node alive, so its id stays unique during the walk
        for nxt, _ in reversed(node.next_functions):
            if nxt is not None and id(nxt) not in seen:
                stack.append(nxt)
    return order


def node_label(node):
    """What a node is called: its class's name (``MulBackward0``, ``AccumulateGrad``,
    ``MyFnBackward``)."""
    return type(node).__name__


def function_class_name(node):
    """The name a report groups a node under: a custom Function's class name, or the built-in
    node's class name."""
    cls = getattr(type(node), "_forward_cls", None)
    return cls.__name__ if cls is not None else node_label(node)


class NodeSavedMemory:
    """One node's row of the report: ``node``, its ``name``, the ``bytes`` of storage its saved
    tensors keep alive (shared storage counted once) and the ``tensors`` themselves."""

    __slots__ = ("node", "name", "function", "bytes", "tensors")

    def __init__(self, node, tensors):
        self.node = node
        self.name = node_label(node)
        self.function = function_class_name(node)
        self.tensors = tensors
        self.bytes = _union_bytes([t._span for t in tensors if t._span is not None])

    def __repr__(self):
        return f"NodeSavedMemory({self.name}: {self.bytes} bytes in {len(self.tensors)} tensors)"


class SavedMemoryReport:
    """What ``saved_memory`` found. Numbers, all in bytes, storage shared between tensors counted
    once within each figure:

    * ``total_bytes``: everything the graph's saved tensors keep alive;
    * ``leaf_bytes``: the part that is the storage of the graph's leaves (parameters, inputs),
      alive anyway while they are;
    * ``per_node``: ``{node: bytes}``; ``nodes``: a ``NodeSavedMemory`` per node, outputs first;
    * ``per_class``: ``{name: bytes}`` per Function class (built-in nodes by node class), largest
      first; ``counts``: ``{name: number of nodes}``.

    ``print(report)`` shows a table."""

    def __init__(self, nodes, leaf_spans):
        self.nodes = nodes
        self.per_node = {row.node: row.bytes for row in nodes}
        spans = [t._span for row in nodes for t in row.tensors if t._span is not None]
        self.total_bytes = _union_bytes(spans)
        self.leaf_bytes = _union_bytes(
            [s for s in spans if any(s[0] < hi and lo < s[1] for lo, hi in leaf_spans)]
        )
        by_class = {}
        counts = {}
        for row in nodes:
            by_class.setdefault(row.function, []).extend(
                t._span for t in row.tensors if t._span is not None
            )
            counts[row.function] = counts.get(row.function, 0) + 1
        sizes = {name: _union_bytes(s) for name, s in by_class.items()}
        self.per_class = dict(sorted(sizes.items(), key=lambda kv: -kv[1]))
        self.counts = {name: counts[name] for name in self.per_class}

    def __str__(self):
        lines = [
            f"saved for backward: {format_bytes(self.total_bytes)} in {len(self.nodes)} nodes "
            f"({format_bytes(self.leaf_bytes)} of it leaves' storage)",
            "",
            f"{'per Function class':<32} {'nodes':>6} {'bytes':>12}",
        ]
        for name, size in self.per_class.items():
            lines.append(f"{name:<32} {self.counts[name]:>6} {format_bytes(size):>12}")
        lines += ["", f"{'per node':<32} {'saved tensor':<22} {'shape':<16} {'dtype':<14} bytes"]
        for row in self.nodes:
            if not row.tensors:
                continue
            lines.append(f"{row.name:<32} {'':<22} {'':<16} {'':<14} {format_bytes(row.bytes)}")
            for t in row.tensors:
                if t.freed:
                    lines.append(f"{'':<32} {t.name:<22} (freed by backward)")
                    continue
                shape, dtype = format_shape(t.shape), format_dtype(t.dtype)
                lines.append(
                    f"{'':<32} {t.name:<22} {shape:<16} {dtype:<14} {format_bytes(t.nbytes)}"
                )
        if any(not is_custom_node(row.node) for row in self.nodes):
            lines += ["", "(built-in nodes count the tensors they expose as grad_fn._saved_<name>)"]
        return "\n".join(lines)

    def __repr__(self):
        return (
            f"SavedMemoryReport(total_bytes={self.total_bytes}, leaf_bytes={self.leaf_bytes}, "
            f"nodes={len(self.nodes)}, per_class={self.per_class})"
        )


def format_shape(shape):
    """``(2, 3)`` -> ``'(2, 3)'``, ``(5,)`` -> ``'(5,)'``, ``()`` -> ``'()'``."""
    return str(tuple(shape))


def format_dtype(dtype):
    """``torch.float32`` / NumPy ``float64`` -> ``'float32'`` / ``'float64'``."""
    return str(dtype).rsplit(".", 1)[-1]


def format_bytes(n):
    """``1536`` -> ``'1.5 KiB'``: bytes in the largest binary unit that keeps a number >= 1."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"  # unreachable; keeps linters sure of a return


def _roots(tensors):
    if _C.is_tensor(tensors):
        tensors = (tensors,)
    elif not isinstance(tensors, (list, tuple)):
        raise TypeError(
            "saved_memory(): expected a Tensor or a sequence of Tensors, got "
            f"{type(tensors).__name__}"
        )
    roots = []
    for t in tensors:
        if not _C.is_tensor(t):
            raise TypeError(
                f"saved_memory(): expected a Tensor or a sequence of Tensors, got {type(t).__name__}"
            )
        if t.grad_fn is not None:
            roots.append(t.grad_fn)
    return roots


def saved_memory(tensors):
    """Reports the bytes the backward graph behind ``tensors`` (a tensor or several) keeps alive
    in saved tensors and ctx attributes, per node and per Function class.

    Example::

        loss = model(x).sum()
        report = engine.autograd.graph.saved_memory(loss)
        print(report)                 # a table
        report.per_class["MyFn"]      # bytes held by MyFn's nodes

    A tensor without ``grad_fn`` (a leaf, or made under ``no_grad``) has an empty report."""
    nodes = walk(_roots(tensors))
    rows = []
    leaf_spans = []
    for node in nodes:
        if type(node).__name__ == "AccumulateGrad":
            leaf = node.variable
            if leaf is not None:
                leaf_spans.append(_describe(leaf)[3])
            continue
        rows.append(NodeSavedMemory(node, saved_tensors_of(node)))
    return SavedMemoryReport(rows, leaf_spans)
