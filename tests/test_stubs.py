"""The committed type stub of the native module (python/engine/_C.pyi) must list exactly what the
module exports; regenerate it with `bash .ci/stubs` after changing the bindings."""

import ast
import pathlib
import types

import engine
from engine import _C

STUB = pathlib.Path(engine.__file__).parent / "_C.pyi"


def stub_names():
    tree = ast.parse(STUB.read_text())
    top, classes = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            top.add(node.target.id)
        elif isinstance(node, ast.Assign):
            top.update(t.id for t in node.targets if isinstance(t, ast.Name))
        if isinstance(node, ast.ClassDef):
            classes[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id
                for n in node.body
                if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
            }
    return top - {"__all__"}, classes


def native_members(cls):
    """Public attributes defined natively on cls (not the ones the Python package adds)."""
    names = set()
    for name, value in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(value, property):
            value = value.fget
        if isinstance(value, (types.FunctionType, type)) or not callable(value):
            continue
        names.add(name)
    return names


def test_stub_exists():
    assert STUB.is_file()
    assert (STUB.parent / "py.typed").is_file()


def test_stub_lists_every_module_level_name():
    top, _ = stub_names()
    runtime = {n for n in dir(_C) if not n.startswith("__")}
    assert runtime - top == set(), "names missing from _C.pyi: run bash .ci/stubs"
    assert top - runtime == set(), "stale names in _C.pyi: run bash .ci/stubs"


def test_stub_lists_every_native_method():
    _, classes = stub_names()
    for name in classes:
        cls = getattr(_C, name)
        missing = native_members(cls) - classes[name]
        assert missing == set(), f"{name}: methods missing from _C.pyi: run bash .ci/stubs"
