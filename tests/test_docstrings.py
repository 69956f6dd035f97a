"""Every public name carries a docstring (tests/docstring_coverage.py says which area lacks what),
the documentation written in engine/_docs is attached where it belongs, and the examples in the
docstrings run and print what they show."""

import doctest
import warnings

import engine
import pytest
from engine import _docs

from tests.docstring_coverage import areas, coverage, doc_text, is_documented

# Examples not run: they need a process group (MPI, optional software), or they are being
# rewritten in a file under work elsewhere (engine.func.vmap shows `engine.Size([5])`; a Size
# prints as torch.Size, so the example needs `torch.Size([5])`; engine.vmap is the same function).
ILLUSTRATIVE = {"engine.utils.data.DistributedSampler", "engine.func.vmap", "engine.vmap"}
ILLUSTRATIVE_MODULES = ("engine.distributed", "engine.nn.parallel")


def _illustrative(name):
    return name in ILLUSTRATIVE or name.startswith(ILLUSTRATIVE_MODULES)


def test_every_public_name_has_a_docstring():
    missing = [name for _, _, names in coverage().values() for name in names]
    assert not missing, (
        f"{len(missing)} public names have no docstring (write them in python/engine/_docs/ or in"
        " place; `python -m tests.docstring_coverage --missing` lists them by area):\n  "
        + "\n  ".join(missing)
    )


def test_the_surface_is_enumerated():
    # The areas the coverage measure walks, and a few names known in each, so that a change in
    # how the surface is listed cannot make the coverage trivially complete.
    found = {area: {name for name, _ in entries} for area, entries in areas().items()}
    for area, name in [
        ("engine", "engine.add"),
        ("Tensor", "engine.Tensor.shape"),
        ("Tensor", "engine.Tensor.sum"),
        ("nn.functional", "engine.nn.functional.softmax"),
        ("nn", "engine.nn.Linear"),
        ("nn", "engine.nn.Module.forward"),
        ("optim", "engine.optim.SGD.step"),
        ("linalg", "engine.linalg.norm"),
        ("autograd", "engine.autograd.grad"),
        ("utils.data", "engine.utils.data.DataLoader"),
    ]:
        assert name in found[area], (area, name)
    assert sum(len(names) for names in found.values()) > 1000


def test_pybind_signature_lines_do_not_count_as_documentation():
    def undocumented():
        pass

    undocumented.__doc__ = "f(input: Tensor, *, out: object = None) -> object\n"
    assert doc_text(undocumented) == ""
    assert not is_documented(undocumented)
    overloads = "1. f(x: int) -> int\n\n2. f(x: float) -> float\n"
    undocumented.__doc__ = "f(*args, **kwargs)\nOverloaded function.\n\n" + overloads
    assert not is_documented(undocumented)


def test_native_functions_keep_their_signature_first():
    # help() and the stub generator read pybind11's signature off the first line.
    for function in (engine.add, engine.Tensor.sum, engine.zeros):
        first, _, rest = function.__doc__.partition("\n")
        assert first.startswith(function.__name__ + "(")
        assert doc_text(function) in rest


def test_documentation_lands_on_the_named_objects():
    assert "See :func:`engine.sum`." in engine.Tensor.sum.__doc__
    assert "In-place version of :meth:`~Tensor.add`" in engine.Tensor.add_.__doc__
    assert "Keyword args:" in engine.add.__doc__ and "alpha=1" in engine.add.__doc__
    assert engine.Tensor.shape.__doc__.startswith("Tensor.shape -> Size")
    assert "multi-dimensional array" in engine.Tensor.__doc__
    assert "vector-Jacobian" in engine.autograd.Function.backward.__doc__
    assert engine.autograd.Function.vjp.__doc__ == engine.autograd.Function.backward.__doc__


def test_attaching_the_docs_imports_nothing_else():
    # The documentation of lazily loaded modules must not load them at `import engine`.
    import subprocess
    import sys

    code = (
        "import sys, engine; "
        "print(' '.join(m for m in ('engine.autograd.functional', 'engine.viz', 'numpy')"
        " if m in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert loaded == []


def test_applying_twice_does_not_repeat_the_text():
    before = engine.add.__doc__
    _docs.apply()
    assert engine.add.__doc__ == before
    assert before.count("Adds ``other``") == 1


def _entries():
    """(area module, owner, name, text) for every text engine/_docs holds."""
    for area in _docs.areas():
        for owner, docs in area.targets(engine):
            for name, text in docs.items():
                yield area.__name__.rsplit(".", 1)[1], owner, name, text


ENTRIES = list(_entries())


def test_built_texts_are_current():
    # import engine attaches engine/_docs/_built.py, generated from the area modules.
    from engine._docs import _built, build

    assert _built.TEXTS == build.collect(engine), (
        "engine/_docs/_built.py is out of date: run `python -m engine._docs.build`"
    )
    unresolved = {(m, q) for m, q, _, _ in _built.TEXTS if _docs.resolve(m, q) is None}
    assert not unresolved, f"owners not found after import engine: {sorted(unresolved)}"


def test_no_entry_names_a_missing_attribute():
    stale = [
        f"{area}: {getattr(owner, '__name__', owner)}.{name}"
        for area, owner, name, _ in ENTRIES
        if _docs.raw_attribute(owner, name) is None
    ]
    assert not stale, "engine/_docs documents names that no longer exist: " + ", ".join(stale)


def test_every_entry_was_attached():
    # help() shows the text: nothing was skipped because the object refused a docstring.
    unattached = []
    for area, owner, name, text in ENTRIES:
        obj = _docs.raw_attribute(owner, name)
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
        if obj is not None and text.strip() not in (obj.__doc__ or ""):
            unattached.append(f"{area}: {name}")
    assert not unattached, "texts in engine/_docs not attached: " + ", ".join(unattached)


def test_entries_follow_the_house_style():
    for area, _, name, text in ENTRIES:
        assert text == text.strip(), (area, name)
        assert (
            "torch."
            not in text.replace("torch.Size", "").replace("torch.return_types", "")[
                : text.find("Example::") if "Example::" in text else None
            ]
        ), (area, name, "name engine, not torch, outside printed output")
        body = text.partition("\n\n")[2]  # signature lines may be long, as PyTorch's are
        assert max(map(len, body.splitlines()), default=0) <= 120, (area, name, "keep lines short")


def _run_examples(name, text, warnings_filter="error"):
    test = doctest.DocTestParser().get_doctest(text, {"engine": engine}, name, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    report = []
    with warnings.catch_warnings():
        warnings.simplefilter(warnings_filter)
        runner.run(test, out=report.append)
    dtype = engine.get_default_dtype()
    assert dtype == engine.float32, f"{name}'s example left the default dtype at {dtype}"
    assert runner.failures == 0, "".join(report)
    return len(test.examples)


@pytest.mark.parametrize(
    "area, name, text",
    [(area, name, text) for area, _, name, text in ENTRIES if ">>>" in text],
    ids=lambda v: v if isinstance(v, str) and "\n" not in v else "",
)
def test_examples_written_in_docs_run(area, name, text):
    assert _run_examples(f"{area}.{name}", text) > 0


def test_examples_in_every_public_docstring_run():
    # Docstrings written in place (nn modules, optimizers, data loading, ...) are held to the
    # same standard; engine/_docs entries run one by one above.
    ran, failures = 0, []
    for entries in areas().values():
        for name, obj in entries:
            doc = obj.__doc__
            if not isinstance(doc, str) or ">>>" not in doc or _illustrative(name):
                continue
            try:
                # Some show deprecated names, which warn as PyTorch's do.
                ran += _run_examples(name, doc, "ignore")
            except AssertionError as error:
                failures.append(str(error))
    assert not failures, "\n".join(failures)
    assert ran > 300


def test_examples_print_what_pytorch_prints():
    # Optional live comparison: the same examples with engine spelled torch, where PyTorch is
    # installed, must print the same (the printed output uses PyTorch's names already).
    torch = pytest.importorskip("torch")
    failures = []
    for area, _, name, text in ENTRIES:
        if ">>>" not in text:
            continue
        test = doctest.DocTestParser().get_doctest(
            text.replace("engine.", "torch."), {"torch": torch}, f"{area}.{name}", None, 0
        )
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
        report = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            runner.run(test, out=report.append)
        if runner.failures:
            failures.append("".join(report))
    assert not failures, "\n".join(failures)
