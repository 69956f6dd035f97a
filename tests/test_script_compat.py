"""The names scripts call at start-up or around their models: engine.jit, engine.compile and
engine.compiler, engine.version, deterministic/precision settings, default tensor type and device,
engine.multiprocessing and engine.overrides."""

import warnings

import engine
import pytest


def test_jit_hands_back_what_it_gets():
    def f(x):
        return x * 2

    with pytest.warns(DeprecationWarning, match="`torch.jit.script` is deprecated"):
        scripted = engine.jit.script(f)
    assert scripted is f
    model = engine.nn.Linear(2, 2)
    with pytest.warns(DeprecationWarning, match="`torch.jit.trace` is deprecated"):
        assert engine.jit.trace(model, engine.ones(1, 2)) is model
    assert engine.jit.ignore(f) is f and engine.jit.ignore(drop=True)(f) is f
    assert engine.jit.unused(f) is f and engine.jit.export(f) is f
    assert engine.jit.is_scripting() is False and engine.jit.is_tracing() is False
    assert engine.jit.annotate(int, 3) == 3
    assert engine.jit.wait(engine.jit.fork(f, 2)) == 4
    assert issubclass(engine.jit.ScriptModule, engine.nn.Module)
    with pytest.raises(RuntimeError, match="engine has no TorchScript"):
        engine.jit.save(model, "m.pt")


def test_compile_returns_the_model():
    model = engine.nn.Linear(2, 2)
    assert engine.compile(model) is model
    assert engine.compile(mode="max-autotune")(model) is model
    assert engine.compiler.disable(model) is model
    assert engine.compiler.is_compiling() is False
    with pytest.raises(RuntimeError, match="requires a callable or an nn.Module"):
        engine.compile(3)


def test_version():
    assert engine.version.__version__ == engine.__version__
    assert engine.version.cuda is None and engine.version.hip is None


def test_deterministic_and_precision_settings():
    try:
        engine.use_deterministic_algorithms(True, warn_only=True)
        assert engine.are_deterministic_algorithms_enabled()
        assert engine.is_deterministic_algorithms_warn_only_enabled()
        assert engine.get_deterministic_debug_mode() == 1
        engine.set_deterministic_debug_mode("error")
        assert engine.get_deterministic_debug_mode() == 2
        with pytest.raises(
            TypeError, match="argument 'mode' \\(position 1\\) must be bool, not int"
        ):
            engine.use_deterministic_algorithms(1)
        with pytest.raises(
            RuntimeError, match="expected one of `default`, `warn`, `error`, but got x"
        ):
            engine.set_deterministic_debug_mode("x")
    finally:
        engine.use_deterministic_algorithms(False)
    try:
        engine.set_float32_matmul_precision("medium")
        assert engine.get_float32_matmul_precision() == "medium"
        with pytest.warns(UserWarning, match="x is not one of 'highest', 'high', or 'medium'"):
            engine.set_float32_matmul_precision("x")
        assert engine.get_float32_matmul_precision() == "medium"
    finally:
        engine.set_float32_matmul_precision("highest")


def test_default_tensor_type_and_device():
    try:
        with pytest.warns(UserWarning, match="set_default_tensor_type\\(\\) is deprecated"):
            engine.set_default_tensor_type(engine.DoubleTensor)
        assert engine.get_default_dtype() == engine.float64
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            engine.set_default_tensor_type("torch.FloatTensor")
        assert engine.get_default_dtype() == engine.float32
    finally:
        engine.set_default_dtype(engine.float32)
    engine.set_default_device("cpu")
    assert str(engine.get_default_device()) == "cpu"
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        engine.set_default_device("cuda")


def _square_into(i, queue):
    queue.put((i, i * i))


def test_multiprocessing_spawn():
    ctx = engine.multiprocessing.get_context("spawn")
    queue = ctx.SimpleQueue()
    engine.multiprocessing.spawn(_square_into, args=(queue,), nprocs=2)
    assert sorted(queue.get() for _ in range(2)) == [(0, 0), (1, 1)]


def test_overrides():
    assert engine.overrides.has_torch_function_variadic(engine.ones(1)) is False
    assert engine.overrides.is_tensor_like(engine.ones(1))
    assert engine.overrides.handle_torch_function(abs, (), -2) == 2


def test_is_complex_is_false_for_every_engine_dtype():
    assert (
        engine.is_complex(engine.ones(2)) is False
        and engine.ones(2, dtype=engine.int8).is_complex() is False
    )
    with pytest.raises(
        TypeError, match=r"is_complex\(\): argument 'input' \(position 1\) must be Tensor, not int"
    ):
        engine.is_complex(3)


def test_celu_alpha_zero_message_is_pytorchs():
    with pytest.raises(RuntimeError, match="^ZeroDivisionError: alpha cannot be 0 for CELU$"):
        engine.nn.functional.celu(engine.ones(2), alpha=0.0)
