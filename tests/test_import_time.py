"""`import engine` loads only what every script uses: the optional dependencies and the heavy
subpackages (nn's layers and functional, optim, distributions, special, func, data loading) load
on first use, and every public name stays reachable exactly as from an eager package. No timing
here: bench/ measures the import time."""

import importlib
import json
import os
import pickle
import subprocess
import sys

import engine
import pytest

OPTIONAL = ("numpy", "tqdm", "matplotlib", "graphviz", "safetensors", "mpi4py", "scipy")
LAZY_ENGINE_MODULES = (
    "engine.nn.functional", "engine.nn.init", "engine.nn.utils", "engine.nn.parameter",
    "engine.nn.modules.module", "engine.nn.modules.linear", "engine.nn._conv",
    "engine.optim", "engine.distributions", "engine.special", "engine.func", "engine.utils.data",
    "engine.serialization", "engine.distributed", "engine.viz", "engine.autograd.functional",
)  # fmt: skip


def _fresh(code):
    """Runs code in a fresh interpreter and returns what it printed, parsed as JSON."""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def _loaded_after(statement, names):
    return _fresh(
        f"import json, sys\n{statement}\n"
        f"print(json.dumps([m for m in {list(names)!r} if m in sys.modules]))"
    )


def test_import_engine_loads_no_optional_dependency():
    assert _loaded_after("import engine", OPTIONAL) == []


# Standard-library modules that cost a millisecond or more to import (regex compiles, large
# modules); the test counts those `import engine` adds to what the interpreter had loaded.
HEAVY_STDLIB = (
    "inspect", "typing", "dataclasses", "enum", "re", "string", "ast", "tokenize", "textwrap",
    "pathlib", "tempfile", "zipfile", "threading", "subprocess", "json", "pickle", "numbers",
    "decimal", "fractions", "logging", "argparse", "traceback", "dis",
)  # fmt: skip


def test_import_engine_adds_no_heavy_standard_library_module():
    added = _fresh(
        "import json, sys\nbefore = set(sys.modules)\nimport engine\n"
        f"print(json.dumps([m for m in {list(HEAVY_STDLIB)!r} if m in set(sys.modules) - before]))"
    )
    assert added == []


def test_import_engine_leaves_the_heavy_submodules_for_later():
    assert _loaded_after("import engine", LAZY_ENGINE_MODULES) == []


def test_a_layer_loads_its_own_file_not_every_layer():
    loaded = _loaded_after(
        "import engine\nengine.nn.Linear",
        ("engine.nn.modules.linear", "engine.nn.modules.rnn", "engine.nn.modules.transformer"),
    )
    assert loaded == ["engine.nn.modules.linear"]


def test_an_optimizer_loads_its_own_file_not_every_optimizer():
    loaded = _loaded_after(
        "import engine\nengine.optim.Adam",
        (
            "engine.optim.adam",
            "engine.optim.sgd",
            "engine.optim.lbfgs",
            "engine.optim.lr_scheduler",
        ),
    )
    assert loaded == ["engine.optim.adam"]


@pytest.mark.parametrize(
    "statement, expression",
    [
        ("import engine", "engine.nn.Linear"),
        ("import engine.nn.functional as F", "F.relu"),
        ("import engine.nn.functional", "engine.nn.functional.softmax"),
        ("from engine.nn import functional as F", "F.cross_entropy"),
        ("from engine import nn", "nn.Module"),
        ("from engine.nn import *", "Sequential"),
        ("import engine", "engine.optim.Adam"),
        ("import engine", "engine.optim.lr_scheduler.StepLR"),
        ("import engine", "engine.nn.utils.clip_grad_norm_"),
        ("import engine", "engine.utils.data.DataLoader"),
        ("import engine", "engine.conv2d"),
        ("import engine", "engine.dropout"),
        ("import engine", "engine.vmap"),
        ("import engine", "engine.return_types.max"),
        ("import engine.nn.modules.linear as m", "m.Linear"),
        ("from engine.nn.modules import Linear", "Linear"),
        ("from engine.optim import Adam", "Adam"),
        ("from engine.distributions import Normal, kl_divergence", "kl_divergence"),
        ("from engine.return_types import max as named_max", "named_max"),
    ],
)
def test_every_spelling_reaches_the_name_in_a_fresh_interpreter(statement, expression):
    code = f"import json\n{statement}\nprint(json.dumps(callable({expression})))"
    assert _fresh(code) is True


def test_lazy_names_are_the_objects_the_files_define():
    import engine.nn.functional as F
    from engine.nn import modules

    assert engine.nn.Linear is modules.linear.Linear is modules.Linear
    assert engine.nn.Module is modules.module.Module
    assert engine.nn.Parameter is engine.nn.parameter.Parameter
    assert engine.conv2d is F.conv2d and engine.max_pool2d is F.max_pool2d
    assert engine.adaptive_max_pool1d is F.adaptive_max_pool1d_with_indices
    assert engine.vmap is engine.func.vmap
    layer = engine.nn.Linear(2, 3)
    assert isinstance(layer, engine.nn.Module) and isinstance(layer, modules.module.Module)
    assert isinstance(layer.weight, engine.nn.Parameter)


def test_dir_lists_the_lazy_names():
    assert {"Linear", "Module", "functional", "init", "parallel", "utils"} <= set(dir(engine.nn))
    assert {"nn", "optim", "special", "distributions", "conv2d", "vmap"} <= set(dir(engine))
    assert {"Linear", "linear", "module"} <= set(dir(engine.nn.modules))
    assert {"max", "sort", "linalg_svd"} <= set(dir(engine.return_types))


def test_every_listed_name_resolves():
    for module in (engine, engine.nn, engine.nn.modules, engine.return_types):
        for name in dir(module):
            getattr(module, name)
        for name in getattr(module, "__all__", ()):
            getattr(module, name)


def test_unknown_names_raise_attribute_error():
    for module, name in ((engine, "no_such_name"), (engine.nn, "Linearr")):
        with pytest.raises(AttributeError, match=f"has no attribute '{name}'"):
            getattr(module, name)
    assert not hasattr(engine.nn.modules, "NoSuchLayer")
    assert not hasattr(engine.return_types, "no_such_type")


def test_the_family_table_matches_the_files():
    from engine.nn import modules

    for family, names in modules._FAMILIES.items():
        module = importlib.import_module(f"engine.nn.modules.{family}")
        assert list(names) == list(module.__all__), (
            f"engine/nn/modules/__init__.py: _FAMILIES[{family!r}] must list {family}.py's __all__"
        )
    assert engine.nn.__all__[:7] == ["Buffer", "Module", "Parameter", "functional", "grad", "init",
                                     "utils"]  # fmt: skip
    assert set(engine.nn.__all__[7:]) == {n for n in modules.__all__ if n[:1].isupper()} - {
        "Module"
    }


def test_the_torch_function_table_matches_engine_nn():
    from engine.nn import _torch_functions

    for name, fn in _torch_functions._functions().items():
        assert getattr(engine, name, None) is fn, (
            f"engine.{name}: add it to _NN_FUNCTIONS in engine/__init__.py (loaded on first use)"
        )
    for name, (module, attribute) in engine._NN_FUNCTIONS.items():
        assert getattr(engine, name) is getattr(importlib.import_module(module), attribute)


def test_modules_and_optimizers_unpickle_in_a_fresh_interpreter():
    model = engine.nn.Sequential(engine.nn.Linear(2, 2), engine.nn.ReLU())
    optimizer = engine.optim.Adam(model.parameters())
    blob = pickle.dumps((model, optimizer.state_dict(), engine.max(engine.ones(2, 2), 1)))
    code = (
        "import json, pickle, sys\n"
        f"model, state, result = pickle.loads({blob!r})\n"
        "print(json.dumps([type(model).__module__, type(model[0]).__name__,"
        " type(result).__module__, sorted(state)]))"
    )
    assert _fresh(code) == ["engine.nn.modules.container", "Linear", "engine.return_types",
                            ["param_groups", "state"]]  # fmt: skip


def test_documentation_attaches_however_nn_functional_is_imported():
    from engine._docs._built import TEXTS

    text = next(t for m, q, n, t in TEXTS if m == "engine.nn.functional" and n == "relu")
    for statement in (
        "import engine.nn.functional as F",
        "import engine; F = engine.nn.functional",
    ):
        code = f"import json\n{statement}\nprint(json.dumps(F.relu.__doc__))"
        assert _fresh(code) == text, statement


def test_import_engine_leaves_the_garbage_collector_as_it_was():
    # The import pauses the collector (engine/__init__.py) and must restore the caller's setting.
    assert _fresh("import gc, json\nimport engine\nprint(json.dumps(gc.isenabled()))") is True
    assert (
        _fresh("import gc, json\ngc.disable()\nimport engine\nprint(json.dumps(gc.isenabled()))")
        is False
    )


def test_import_engine_keeps_a_user_openblas_thread_timeout():
    # engine shortens OpenBLAS's idle spinning unless the environment already chose a value.
    code = (
        "import json, os\nimport engine\nprint(json.dumps(os.environ['OPENBLAS_THREAD_TIMEOUT']))"
    )
    assert _fresh(code) == "20"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "OPENBLAS_THREAD_TIMEOUT": "25"},
    ).stdout
    assert json.loads(out.strip().splitlines()[-1]) == "25"
