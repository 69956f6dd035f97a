"""Python numbers as operands of + - * / ** and their in-place forms: the cases, and how one
case's outcome is summarised for comparison with PyTorch 2.13 (tests/test_number_operands.py).

Each case is a statement over ``L`` (engine or torch) and ``x`` (a tensor of the case's dtype,
requiring grad when floating) that binds ``y``. The outcome holds y's dtype and values (float
values as exact doubles), its grad_fn's name, next_functions and ``_saved_*`` attributes, and
x's gradient after ``y.sum().backward()``; or the exception's type and first line."""

DATA = {
    "float": [1.0, -2.5, 0.1, 7.0],
    "int": [1, -2, 0, 7],
    "uint8": [1, 200, 0, 7],
    "bool": [True, False, False, True],
}
DTYPES = {
    "float32": "float",
    "float64": "float",
    "float16": "float",
    "bfloat16": "float",
    "int64": "int",
    "uint8": "uint8",
    "bool": "bool",
}
# The number forms on the per-call path: fresh results, reflected forms, and in place on a
# non-leaf copy of x (h = x * 1 records when x requires grad).
EXPRESSIONS = {
    "add_int": "y = x + 1",
    "add_float": "y = x + 0.1",
    "radd_float": "y = 0.1 + x",
    "add_big_int": "y = x + (2**40 + 1)",
    "add_bool": "y = x + True",
    "sub_int": "y = x - 1",
    "sub_float": "y = x - 0.3",
    "sub_overflow": "y = x - 300",
    "rsub_int": "y = 1 - x",
    "rsub_float": "y = 0.3 - x",
    "mul_float": "y = x * 0.1",
    "div_int": "y = x / 2",
    "div_float": "y = x / 3.0",
    "div_third": "y = x / 0.3",
    "rdiv_int": "y = 2 / x",
    "rdiv_float": "y = 0.7 / x",
    "pow_2": "y = x ** 2",
    "pow_3": "y = x ** 3",
    "pow_half": "y = x ** 0.5",
    "pow_minus_1": "y = x ** -1",
    "pow_2_5": "y = x ** 2.5",
    "pow_0": "y = x ** 0",
    "rpow_int": "y = 2 ** x",
    "rpow_float": "y = 1.5 ** x",
    "iadd_int": "y = x * 1\ny += 1",
    "iadd_float": "y = x * 1\ny += 0.1",
    "isub_float": "y = x * 1\ny -= 0.3",
    "imul_float": "y = x * 1\ny *= 0.1",
    "idiv_int": "y = x * 1\ny /= 3",
    "add__method": "y = x * 1\ny.add_(0.1)",
    "sub__method": "y = x * 1\ny.sub_(1)",
    "mul__method": "y = x * 1\ny.mul_(2.5)",
    "div__method": "y = x * 1\ny.div_(0.3)",
    "add_alpha": "y = x.add(1, alpha=2)",
    "add_method": "y = x.add(0.1)",
    "sub_method": "y = x.sub(1)",
    "mul_method": "y = x.mul(0.1)",
    "div_method": "y = x.div(3)",
    "pow_method": "y = x.pow(0.5)",
    "leaf_inplace_refused": "x.add_(1)\ny = x",
    "iadd_no_grad": "y = x.detach().clone()\ny += 0.1",
    "idiv_no_grad": "y = x.detach().clone()\ny /= 0.3",
}


def _element(v):
    # repr is exact for a double and tells -0.0 from 0.0; NaN compares equal as a string
    return repr(v) if isinstance(v, float) else v


def _value(v):
    return [type(v).__name__, _element(v)]


def _saved(lib, fn):
    out = {}
    for name in sorted(a for a in dir(fn) if a.startswith("_saved_")):
        v = getattr(fn, name)
        if isinstance(v, lib.Tensor):
            out[name] = [
                "tensor",
                str(v.dtype).split(".")[-1],
                [_element(e) for e in v.detach().reshape(-1).tolist()],
            ]
        else:
            out[name] = _value(v) if isinstance(v, (int, float)) else repr(v)
    return out


def outcome(lib, expression, dtype):
    """The summary of one case run with ``lib`` (engine or torch)."""
    kind = DTYPES[dtype]
    x = lib.tensor(DATA[kind], dtype=getattr(lib, dtype))
    floating = x.is_floating_point()
    if floating:
        x.requires_grad_()
    scope = {"L": lib, "x": x}
    try:
        exec(expression, scope)
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        return {"error": [type(e).__name__, str(e).splitlines()[0]]}
    y = scope["y"]
    result = {
        "dtype": str(y.dtype).split(".")[-1],
        "values": [_element(v) for v in y.detach().tolist()],
    }
    fn = y.grad_fn
    if fn is not None:
        result["grad_fn"] = type(fn).__name__
        result["next"] = [None if f is None else type(f).__name__ for f, _ in fn.next_functions]
        result["saved"] = _saved(lib, fn)
        y.sum().backward()
        result["grad"] = [_element(v) for v in x.grad.tolist()]
    return result


def case_names():
    """Every (expression name, dtype) pair, as test ids."""
    return [f"{name}-{dtype}" for name in EXPRESSIONS for dtype in DTYPES]


def run_case(lib, case):
    name, dtype = case.rsplit("-", 1)
    return outcome(lib, EXPRESSIONS[name], dtype)
