"""Argument pools, as Python source.

Every value is a source expression evaluated in ``objects.namespace()``. Source rather than live
objects keeps three things simple: the child logs exactly what it is about to run, a logged call is
a copy-pasteable reproduction, and every call builds fresh arguments (earlier in-place ops cannot
leak into later calls). This module needs neither engine nor numpy, so the parent can import it.

``plausible(slot, rng)`` gives a value that fits a parameter (a small float tensor for ``input``,
a valid dim for ``dim``), ``hostile(rng)`` anything from the hostile pool.
"""

# Shapes overlap on purpose (several (3,)/(4,)/(4, 4)-compatible ones) so that random pairs of
# tensors often broadcast and calls get past shape checks into the kernels.
SHAPES = [(), (0,), (1,), (3,), (4,), (2, 3), (3, 4), (4, 4), (1, 1), (3, 1), (0, 3), (2, 3, 4)]
MANY_DIMS = (1, 1, 1, 1, 1, 1, 1, 1, 1)
DTYPES = ["float32", "float32", "float32", "float64", "int64", "int32", "bool"]
ALL_DTYPES = ["float32", "float64", "int64", "int32", "bool"]

HOSTILE_INTS = [
    "0",
    "1",
    "-1",
    "2",
    "-2",
    "7",
    "-100",
    "2**31 - 1",
    "2**31",
    "-2**31 - 1",
    "2**32",
    "2**62",
    "2**63 - 1",
    "-2**63",
    "2**63",
    "2**64",
    "-2**64",
    "10**100",
    "True",
    "False",
]
HOSTILE_FLOATS = [
    "nan",
    "inf",
    "-inf",
    "-0.0",
    "0.0",
    "1e308",
    "-1e308",
    "5e-324",
    "0.5",
    "-1.5",
    "1e20",
    "2.0**63",
]
HOSTILE_STRINGS = ["''", "'abc'", "'mean'", "'\\x00'", "'é'", "b''", "b'abc'", "bytearray(b'x')"]
HOSTILE_LISTS = [
    "[]",
    "[[]]",
    "[[], []]",
    "[1, [2]]",
    "[[1, 2], [3]]",
    "[1, 'a']",
    "[1, None]",
    "[1.0, nan]",
    "[2**64]",
    "[-2**63 - 1]",
    "[True, 2.5]",
    "[np.float32(1), np.int64(2)]",
    "[engine.ones(1), 1]",
    "[engine.ones(2), engine.ones(3)]",
    "[engine.randn(2, 2), 1.0]",
    "[engine.ones(2), [1.0, 2.0]]",
    "[1.0] * 10**5",
    "[[1.0] * 1000] * 100",
    "deep_list(100000)",
    "deep_list(1000)",
    "deep_list(64)",
    "deep_list(40, engine.ones(1))",
    "clearing_list()",
    "ShrinkingList([1.0, 2.0, 3.0, 4.0])",
    "[BadFloat()]",
    "[BadIndex(), 1]",
    "[1.0, Clearing([])]",
    "[object()]",
    "[[1.0, 2.0], [3.0, BadFloat()]]",
]
HOSTILE_TUPLES = [
    "()",
    "(0,)",
    "(-1,)",
    "(-2, 3)",
    "(2**62,)",
    "(2**32, 2**32)",
    "(2**31, 2**31, 2**31)",
    "(2**62, 0)",
    "(0, 2**62)",
    "(2**63,)",
    "(-2**63,)",
    "(1, -1)",
    "(3, None)",
    "(1.5,)",
    "(BadIndex(),)",
    "(1,) * 64",
    "(1,) * 100000",
    "(engine.tensor(2),)",
]
HOSTILE_NUMPY = [
    "np.array([1.0, 2.0])",
    "np.ones((3, 4))",
    "np.ones((4, 4), dtype=np.float32)",
    "np.array([1.0, 2.0], dtype=np.float16)",
    "np.array([1, 255], dtype=np.uint8)",
    "np.array([1.0, 2.0], dtype='>f8')",
    "np.array([1, 2], dtype='>i4')",
    "np.arange(10.0)[::2]",
    "np.arange(12.0).reshape(3, 4).T",
    "np.arange(5.0)[::-1]",
    "np.array(3.0)",
    "np.array(3)",
    "np.empty((0, 3))",
    "np.array(['a', 'b'])",
    "np.array([None, 1], dtype=object)",
    "np.array([1 + 2j])",
    "np.array([True, False])",
    "np.array([2**63 - 1], dtype=np.int64)",
    "np.float64(1.5)",
    "np.float32(nan)",
    "np.int64(2**62)",
    "np.int8(-1)",
    "np.uint64(2**64 - 1)",
    "np.bool_(True)",
    "np.float16(1.0)",
    "readonly([1.0, 2.0, 3.0])",
    "misaligned()",
    "zero_stride()",
    "np.ones((2, 1, 3))[:, :, ::2]",
    "np.ones(1).reshape(())",
]
HOSTILE_OBJECTS = [
    "None",
    "Ellipsis",
    "object()",
    "{}",
    "{'a': 1}",
    "{1: 2}",
    "set()",
    "frozenset([1])",
    "slice(None)",
    "slice(2**63, None)",
    "slice(0, 10, 0)",
    "slice('a', 'b')",
    "complex(1, 2)",
    "fractions.Fraction(1, 3)",
    "Decimal('nan')",
    "range(3)",
    "range(2**62)",
    "iter([1.0, 2.0])",
    "(v for v in [1.0, 2.0])",
    "memoryview(b'abcdefgh')",
    "array.array('d', [1.0, 2.0])",
    "lambda *a: None",
    "print",
    "engine",
    "engine.Tensor",
    "engine.float32",
    "engine.int64",
    "engine.bool",
    "engine.Size([2, 3])",
    "engine.default_generator",
    "engine.Generator()",
    "BadIndex()",
    "BadInt()",
    "BadFloat()",
    "BadBool()",
    "IndexNotInt()",
    "IndexHuge()",
    "FloatNotFloat()",
    "BadLen()",
    "BadIter()",
    "BadGetitem()",
    "LyingShort()",
    "LyingLong()",
    "HugeLen()",
    "BadRepr()",
    "BadEq()",
    "BadArray()",
    "ArrayNotArray()",
    "FuzzError('as a value')",
]
HOSTILE_TENSORS = [
    "uninit_tensor()",
    "engine.tensor(2**62)",
    "engine.tensor(-2**63)",
    "engine.tensor([2**62, -1])",
    "engine.tensor([100])",
    "engine.tensor([-100])",
    "engine.tensor(nan)",
    "engine.tensor([inf, -inf, nan])",
    "engine.empty(0)",
    "engine.empty(0, 0)",
    "engine.ones(" + ", ".join(map(str, MANY_DIMS)) + ")",
    "engine.ones(1).expand(5)",
    "engine.ones(1, 1).expand(4, 4)",
    "engine.arange(20.0)[::3]",
    "engine.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1)",
    "engine.arange(12.0).reshape(3, 4)[1:, 1:]",
    "engine.ones(3, requires_grad=True)",
    "engine.ones(3, requires_grad=True) * 2",
    "engine.ones(3, requires_grad=True)[1:]",
    "engine.ones(2, 2, dtype=engine.int64)",
    "engine.zeros((), dtype=engine.bool)",
    "engine.from_numpy(np.ones(3))",
]
HOSTILE_CALLABLES = [
    "hook_raises",
    "hook_str",
    "hook_int",
    "hook_wrong_shape",
    "hook_wrong_dtype",
    "hook_zero_d",
    "hook_tuple_long",
    "hook_tuple_garbage",
    "hook_empty_tuple",
    "hook_list_wrong_shape",
    "hook_inplace",
    "hook_requires_grad",
    "hook_reentrant",
    "hook_set_grad_garbage",
    "hook_clear_grad",
    "None",
    "3",
    "'hook'",
    "print",
    "lambda *a: a",
    "lambda: None",
]
FUNCTION_CLASSES = [
    "FnBackwardRaises",
    "FnBackwardTooMany",
    "FnBackwardTooFew",
    "FnBackwardWrongShape",
    "FnBackwardWrongDtype",
    "FnBackwardStr",
    "FnBackwardInt",
    "FnBackwardList",
    "FnBackwardNone",
    "FnBackwardZeroD",
    "FnBackwardRequiresGrad",
    "FnForwardRaises",
    "FnForwardInt",
    "FnForwardNone",
    "FnForwardMixed",
    "FnForwardList",
    "FnForwardIdentity",
    "FnForwardEmptyTuple",
    "FnSaveNonTensor",
    "FnSaveOutput",
    "FnReadSavedTwice",
    "FnDirtyNonInput",
    "FnDirtyGarbage",
    "FnDirtyInput",
    "FnNonDiffGarbage",
    "FnMaterializeGarbage",
    "FnDeleteCtxAttr",
    "FnBackwardReentrant",
    "FnSetupRaises",
    "FnSetupSavesTuple",
]

HOSTILE_CATEGORIES = [
    HOSTILE_INTS,
    HOSTILE_FLOATS,
    HOSTILE_STRINGS,
    HOSTILE_LISTS,
    HOSTILE_TUPLES,
    HOSTILE_NUMPY,
    HOSTILE_OBJECTS,
    HOSTILE_TENSORS,
    HOSTILE_TENSORS,  # twice: tensors are what most parameters want, so hostile ones get through
    HOSTILE_CALLABLES,
]

REDUCTIONS = ["'mean'", "'sum'", "'none'", "'bogus'", "None", "''"]
KWARG_NAMES = [
    "dtype",
    "out",
    "requires_grad",
    "dim",
    "keepdim",
    "alpha",
    "generator",
    "device",
    "layout",
    "memory_format",
    "pin_memory",
    "size",
    "bogus",
]


def shape_src(shape):
    """``(2, 3)`` / ``(3,)`` / ``()`` for a tuple shape."""
    if len(shape) == 1:
        return f"({shape[0]},)"
    return "(" + ", ".join(map(str, shape)) + ")"


def _base_tensor(rng, dtype, shape):
    s = shape_src(shape)
    if dtype in ("float32", "float64"):
        if rng.random() < 0.15:
            return f"engine.rand({s}, dtype=engine.{dtype})"
        return f"engine.randn({s}, dtype=engine.{dtype})"
    if dtype == "bool":
        return f"(engine.randn({s}) > 0)"
    return f"engine.randint(-3, 5, {s}, dtype=engine.{dtype})"


def tensor(rng, dtype=None, shape=None, grad=None):
    """A tensor expression; often non-contiguous, sometimes requiring grad or a non-leaf."""
    dtype = dtype or rng.choice(DTYPES)
    shape = tuple(shape if shape is not None else rng.choice(SHAPES))
    layout = rng.random()
    if layout < 0.12 and len(shape) >= 2:
        # Built with the last two sizes swapped, then transposed back: same shape, not contiguous.
        swapped = (*shape[:-2], shape[-1], shape[-2])
        src = f"{_base_tensor(rng, dtype, swapped)}.transpose(-1, -2)"
    elif layout < 0.22 and len(shape) >= 1:
        doubled = (shape[0] * 2, *shape[1:])
        src = f"{_base_tensor(rng, dtype, doubled)}[::2]"
    elif layout < 0.3 and len(shape) >= 1:
        ones = tuple(1 for _ in shape)
        src = f"{_base_tensor(rng, dtype, ones)}.expand{shape_src(shape)}"
    else:
        src = _base_tensor(rng, dtype, shape)
    floating = dtype in ("float32", "float64")
    if grad is None:
        grad = floating and rng.random() < 0.25
    if grad and floating:
        src = f"{src}.requires_grad_()"
        if rng.random() < 0.5:
            # A non-leaf: its grad_fn, version counter and views then matter.
            src = f"({src} * 1)"
    return src


def float_tensor(rng, shape=None):
    return tensor(rng, dtype=rng.choice(["float32", "float32", "float64"]), shape=shape)


def index_tensor(rng):
    """An int64 index tensor: mostly valid small indices, sometimes out of range or empty."""
    r = rng.random()
    if r < 0.5:
        shape = rng.choice([(2,), (3,), (4,), (2, 3), (4, 4), (1, 1), (3, 4), (0,)])
        return f"engine.randint(0, 3, {shape_src(shape)})"
    if r < 0.65:
        return f"engine.zeros({shape_src(rng.choice([(4, 4), (2,), (1, 1)]))}, dtype=engine.int64)"
    return rng.choice(["engine.tensor([0, 2])"] + HOSTILE_INDEX_TENSORS)


def mask_tensor(rng):
    """A bool mask, usually of a common shape."""
    if rng.random() < 0.8:
        return tensor(rng, dtype="bool")
    return rng.choice(["engine.tensor([True])", "engine.tensor([1, 0])", "engine.ones(3, 4)"])


def dim(rng):
    return rng.choice(["0", "1", "-1", "0", "-1", "2", "-2", "None", "(0, 1)", "[0]"])


def small_int(rng):
    return rng.choice(["0", "1", "2", "3", "4", "-1"])


def sizes(rng):
    """Positional sizes for creation functions and views: zero to three small ints."""
    return [
        rng.choice(["0", "1", "2", "3", "4", "4"]) for _ in range(rng.choice([0, 1, 1, 2, 2, 3]))
    ]


def scalar(rng):
    return rng.choice(["1", "2", "0", "-1", "0.5", "2.5", "-3.0", "True", "1e-3"])


def dtype(rng):
    return "engine." + rng.choice(ALL_DTYPES)


def tensor_list(rng):
    shape = rng.choice(SHAPES)
    n = rng.choice([1, 2, 2, 3])
    items = [tensor(rng, shape=shape if rng.random() < 0.8 else None) for _ in range(n)]
    bracket = "[{}]" if rng.random() < 0.7 else "({},)"
    return bracket.format(", ".join(items))


def hook(rng):
    return rng.choice(HOSTILE_CALLABLES)


def hostile(rng):
    """Any value from the hostile pool, every category equally likely; None more often than its
    share, since a binding that forgets it is None dereferences a null pointer."""
    if rng.random() < 0.06:
        return "None"
    return rng.choice(rng.choice(HOSTILE_CATEGORIES))


HOSTILE_INDEX_TENSORS = [
    "engine.tensor([-1])",
    "engine.tensor([5])",
    "engine.tensor([-5])",
    "engine.tensor([2**62])",
    "engine.tensor([-2**63])",
    "engine.tensor(1)",
    "engine.tensor([], dtype=engine.int64)",
    "engine.tensor([0, 1], dtype=engine.int32)",
    "engine.tensor([0.0, 1.0])",
    "engine.tensor([True, False])",
    "engine.zeros(4, 4, dtype=engine.int64)",
    "engine.full((3, 4), 7, dtype=engine.int64)",
    "engine.full((4, 4), -9, dtype=engine.int64)",
    "engine.zeros(1, dtype=engine.int64).expand(6)",
    "engine.arange(8)[::2]",
    "engine.randint(0, 3, (5, 5, 5))",
]
HOSTILE_TENSOR_LISTS = [
    "[]",
    "()",
    "[engine.ones(2), engine.ones(3)]",
    "[engine.ones(2), engine.ones(2, 2)]",
    "[engine.ones(2), engine.ones(2, dtype=engine.int64)]",
    "[engine.ones(2), 1.0]",
    "[engine.ones(0), engine.ones(3)]",
    "[engine.ones(()), engine.ones(())]",
    "[uninit_tensor()]",
    "[engine.ones(3)] * 1000",
    "(engine.ones(2, 3).t(), engine.ones(3, 2)[::2])",
    "[engine.ones(2, requires_grad=True), engine.ones(2)]",
    "[engine.ones(1).expand(4), engine.ones(4)]",
]
HOSTILE_FLAGS = ["None", "2", "-1", "np.bool_(True)", "BadBool()", "'yes'", "engine.ones(2)"]
HOSTILE_DTYPES = ["np.float32", "'float32'", "float", "int", "engine.Size([2])", "None", "3"]


def hostile_like(slot, rng):
    """A hostile value of the kind the parameter expects (an int for a dim, a tensor for a tensor),
    so that argument parsing lets it through to the code behind it."""
    pools = {
        "T": HOSTILE_TENSORS,
        "TF": HOSTILE_TENSORS,
        "X": HOSTILE_TENSORS + HOSTILE_FLOATS,
        "TI": HOSTILE_INDEX_TENSORS,
        "TB": HOSTILE_INDEX_TENSORS[-6:] + ["engine.tensor([True])", "engine.ones(3, 4)"],
        "TL": HOSTILE_TENSOR_LISTS,
        "D": HOSTILE_INTS,
        "DI": HOSTILE_INTS,
        "I": HOSTILE_INTS,
        "F": HOSTILE_FLOATS + HOSTILE_INTS,
        "SZ": HOSTILE_TUPLES,
        "B": HOSTILE_FLAGS,
        "DT": HOSTILE_DTYPES,
        "FN": HOSTILE_CALLABLES,
        "KEY": None,
    }
    pool = pools.get(slot)
    if slot == "KEY":
        return hostile_index(rng)
    if pool is None or rng.random() < 0.35:
        return hostile(rng)
    if slot in ("T", "TF", "X") and rng.random() < 0.4:
        # An ordinary tensor of another shape or dtype than the call expects.
        return tensor(rng, shape=rng.choice(SHAPES + [MANY_DIMS, (5, 7), (2, 0, 3)]))
    return rng.choice(pool)


def hostile_index(rng):
    """A key for ``t[key]`` / ``t[key] = v``."""
    r = rng.random()
    if r < 0.15:
        return rng.choice(HOSTILE_INTS)
    if r < 0.3:
        bounds = ["None", "0", "1", "-1", "2**63", "-2**63", "2**62", "BadIndex()", "'a'"]
        steps = ["None", "1", "2", "-1", "0", "2**62", "-2**63"]
        return f"slice({rng.choice(bounds)}, {rng.choice(bounds)}, {rng.choice(steps)})"
    if r < 0.45:
        return index_tensor(rng)
    if r < 0.55:
        return mask_tensor(rng)
    if r < 0.75:
        parts = [hostile_index(rng) for _ in range(rng.choice([2, 2, 3, 4]))]
        return "(" + ", ".join(parts) + ",)"
    return rng.choice(
        [
            "...",
            "None",
            "(..., ...)",
            "(None,) * 70",
            "(0,) * 70",
            "[0, 5]",
            "[[0], [1]]",
            "[]",
            "[True]",
            "[True, False, True, False, True]",
            "[0, 'a']",
            "np.array([0, 1])",
            "np.array([True, False, True])",
            "np.int64(1)",
            "BadIndex()",
            "IndexHuge()",
            "IndexNotInt()",
            "BadLen()",
            "1.5",
            "'a'",
            "engine.tensor(1.5)",
            "engine.tensor([[0, 1], [2, 3]])",
            "uninit_tensor()",
        ]
    )


def plausible(slot, rng):
    """A value that fits a parameter of this slot kind (see ``targets.SLOT_BY_NAME``)."""
    if slot == "T":
        return tensor(rng)
    if slot == "TF":
        return float_tensor(rng)
    if slot == "TI":
        return index_tensor(rng)
    if slot == "TB":
        return mask_tensor(rng)
    if slot == "TL":
        return tensor_list(rng)
    if slot == "X":
        return tensor(rng) if rng.random() < 0.7 else scalar(rng)
    if slot == "D":
        return dim(rng)
    if slot == "DI":
        return rng.choice(["0", "1", "-1", "0", "-1", "2", "-2"])
    if slot == "I":
        return small_int(rng)
    if slot == "F":
        return scalar(rng)
    if slot == "B":
        return rng.choice(["True", "False"])
    if slot == "DT":
        return dtype(rng)
    if slot == "SZ":
        return "(" + "".join(f"{s}, " for s in sizes(rng)) + ")"
    if slot == "RED":
        return rng.choice(REDUCTIONS)
    if slot == "STR":
        return rng.choice(["'none'", "'tanh'", "'fro'", "'ij,jk->ik'", "'i->'", "''"])
    if slot == "FN":
        return hook(rng)
    if slot == "GEN":
        return rng.choice(["None", "engine.Generator()", "engine.default_generator"])
    if slot == "NP":
        return rng.choice(HOSTILE_NUMPY)
    # "ANY": whatever the parameter is, a tensor is the most likely thing it accepts.
    r = rng.random()
    if r < 0.6:
        return tensor(rng)
    if r < 0.8:
        return scalar(rng)
    return dim(rng)
