"""Nested Python containers of tensors ("pytrees") flattened to a list and rebuilt.

The function transforms accept and return tuples, lists, dicts and named tuples of tensors. A
container is a node, anything else (a tensor, a number, ``None`` inside a container) is a leaf.
:func:`tree_flatten` returns the leaves in order and a spec; :func:`tree_unflatten` rebuilds the
same structure around new leaves. Specs compare equal exactly when the structures do.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple


class TreeSpec(NamedTuple):
    """The shape of a container tree: its kind, its keys (for dicts/named tuples), its children."""

    kind: Any  # None for a leaf, else tuple / list / dict / a namedtuple class
    keys: tuple
    children: tuple

    def __repr__(self) -> str:
        if self.kind is None:
            return "*"
        inner = ", ".join(repr(c) for c in self.children)
        if self.kind is dict:
            inner = ", ".join(f"{k!r}: {c!r}" for k, c in zip(self.keys, self.children))
            return "{" + inner + "}"
        if self.kind is list:
            return "[" + inner + "]"
        if self.kind is tuple:
            return "(" + inner + ("," if len(self.children) == 1 else "") + ")"
        return f"{self.kind.__name__}({inner})"


LEAF = TreeSpec(None, (), ())


def _is_namedtuple(value: Any) -> bool:
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def tree_flatten(tree: Any) -> tuple[list, TreeSpec]:
    """The leaves of ``tree`` in depth-first order, and the spec to rebuild it."""
    leaves: list = []
    return leaves, _flatten_into(tree, leaves)


def _flatten_into(tree: Any, leaves: list) -> TreeSpec:
    if isinstance(tree, dict):
        keys = tuple(tree)
        return TreeSpec(dict, keys, tuple(_flatten_into(tree[k], leaves) for k in keys))
    if _is_namedtuple(tree):
        cls = type(tree)
        return TreeSpec(cls, tuple(cls._fields), tuple(_flatten_into(v, leaves) for v in tree))
    if type(tree) in (tuple, list):
        return TreeSpec(type(tree), (), tuple(_flatten_into(v, leaves) for v in tree))
    leaves.append(tree)
    return LEAF


def tree_unflatten(leaves: Any, spec: TreeSpec) -> Any:
    """Rebuilds the structure ``spec`` describes around ``leaves`` (in flattening order)."""
    iterator = iter(leaves)
    return _build(iterator, spec)


def _build(leaves: Any, spec: TreeSpec) -> Any:
    if spec.kind is None:
        return next(leaves)
    children = [_build(leaves, child) for child in spec.children]
    if spec.kind is dict:
        return dict(zip(spec.keys, children))
    if spec.kind in (tuple, list):
        return spec.kind(children)
    return spec.kind(*children)


def tree_map(fn: Callable[[Any], Any], tree: Any) -> Any:
    """``tree`` with every leaf replaced by ``fn(leaf)``."""
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(leaf) for leaf in leaves], spec)


def num_leaves(spec: TreeSpec) -> int:
    """How many leaves a tree of structure ``spec`` has."""
    if spec.kind is None:
        return 1
    return sum(num_leaves(child) for child in spec.children)
