"""Docstrings of the classes engine.* exposes besides Tensor's methods: Tensor itself, Generator,
dtype and Size, with their members."""

from engine._docs import tensor_methods
from engine._docs._format import entry, wrap

CLASSES = {
    "Tensor": tensor_methods.CLASS_DOC,
    "Generator": entry(
        "Generator(device='cpu') -> Generator",
        "A random number generator: the state behind :func:`rand`, :func:`randn`, dropout and"
        " the samplers, which all take one through ``generator=``. Seeded alike, it draws the"
        " same numbers as PyTorch's CPU generator. :data:`engine.default_generator` is the one"
        " used when none is given.",
        "    device (str or engine.device): only ``'cpu'`` is supported.",
        ">>> g = engine.Generator().manual_seed(0)\n>>> engine.rand(2, generator=g)\n"
        "tensor([0.4963, 0.7682])",
    ),
    "dtype": wrap(
        "The element type of a tensor: ``engine.float32`` (``engine.float``), ``float64``"
        " (``double``), ``float16`` (``half``), ``bfloat16``, ``int64`` (``long``), ``int32``"
        " (``int``), ``int16`` (``short``), ``int8``, ``uint8`` and ``bool``. They print under"
        " PyTorch's names, so that printed output reads the same in both."
    )
    + "\n\nExample::\n\n    >>> engine.tensor([1.0]).dtype is engine.float32\n    True",
}

GENERATOR = {
    "manual_seed": entry(
        "manual_seed(seed) -> Generator",
        "Seeds the generator (resetting its state) and returns it.",
        "    seed (int): the seed.",
        ">>> g = engine.Generator()\n>>> g.manual_seed(7).initial_seed()\n7",
    ),
    "initial_seed": entry(
        "initial_seed() -> int",
        "The seed the generator was last seeded with.",
    ),
}

DTYPE = {
    "is_floating_point": entry(
        "dtype.is_floating_point -> bool",
        "Whether the dtype is a floating-point type.",
        example=">>> engine.float16.is_floating_point, engine.int32.is_floating_point\n(True, False)",
    ),
    "is_signed": entry(
        "dtype.is_signed -> bool",
        "Whether the dtype holds negative values (``False`` for ``uint8`` and ``bool``).",
        example=">>> engine.int8.is_signed, engine.uint8.is_signed\n(True, False)",
    ),
    "is_complex": entry(
        "dtype.is_complex -> bool",
        "Whether the dtype is a complex type (``complex64`` or ``complex128``).",
        example=">>> engine.complex64.is_complex, engine.float32.is_complex\n(True, False)",
    ),
    "itemsize": entry(
        "dtype.itemsize -> int",
        "The size of one element in bytes.",
        example=">>> engine.float64.itemsize\n8",
    ),
}

SIZE = {
    "numel": entry(
        "numel() -> int",
        "The number of elements a tensor of this shape has: the product of the sizes.",
        example=">>> engine.Size([2, 3]).numel()\n6",
    ),
}


def targets(engine):
    return [
        (engine, CLASSES),
        (engine.Generator, GENERATOR),
        (engine.dtype, DTYPE),
        (engine.Size, SIZE),
    ]
