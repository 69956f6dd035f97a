"""Docstrings of the engine.* functions that are not pointwise math: creation, reductions,
products, shapes and indexing, dtypes and global switches."""

from engine._docs._format import entry

_FACTORY = (
    "    dtype (engine.dtype, optional): the result's dtype. Default: the default dtype\n"
    "        (:func:`get_default_dtype`), or inferred from the arguments where stated.\n"
    "    device (str or engine.device, optional): only ``'cpu'`` is supported.\n"
    "    requires_grad (bool, optional): whether autograd records operations on the result.\n"
    "        Default: ``False``."
)
_LIKE = (
    "    dtype (engine.dtype, optional): the result's dtype. Default: ``input``'s.\n"
    "    device (str or engine.device, optional): only ``'cpu'`` is supported.\n"
    "    requires_grad (bool, optional): whether autograd records operations on the result.\n"
    "        Default: ``False``."
)
_SIZE = "    *size (int...): the shape, as several ints or one list, tuple or :class:`Size`."
_GENERATOR = (
    "    generator (engine.Generator, optional): the random number generator to draw from.\n"
)
_DIM_KEEPDIM = (
    "    dim (int or tuple of ints, optional): the dimension(s) to reduce. Default: all.\n"
    "    keepdim (bool): whether the reduced dimensions are kept with size 1. Default: ``False``."
)


def _filled(name, value, example):
    return entry(
        f"{name}(*size, *, dtype=None, device=None, requires_grad=False) -> Tensor",
        f"A tensor of the given shape filled with {value}.",
        _SIZE,
        example,
        _FACTORY,
    )


def _like(name, value):
    return entry(
        f"{name}(input, *, dtype=None, device=None, requires_grad=False) -> Tensor",
        f"A tensor with the shape (and, unless ``dtype`` is given, the dtype) of ``input``,"
        f" filled with {value}.",
        "    input (Tensor): the tensor whose shape is taken.",
        f">>> engine.{name}(engine.tensor([[1, 2]]))".replace("empty_like", "empty_like")
        + {"zeros_like": "\ntensor([[0, 0]])", "ones_like": "\ntensor([[1, 1]])"}.get(
            name, ".shape\ntorch.Size([1, 2])"
        ),
        _LIKE,
    )


def _reduction(name, text, example, extra_args="", dtype=False):
    dtype_kw = ", *, dtype=None" if dtype else ""
    keywords = (
        "    dtype (engine.dtype, optional): the dtype the input is cast to before reducing."
        if dtype
        else ""
    )
    return entry(
        f"{name}(input, dim=None, keepdim=False{dtype_kw}) -> Tensor",
        text,
        "    input (Tensor): the input tensor.\n" + _DIM_KEEPDIM + extra_args,
        example,
        keywords,
    )


DOCS = {
    # ---- creation ----
    "tensor": entry(
        "tensor(data, *, dtype=None, device=None, requires_grad=False) -> Tensor",
        "Constructs a new tensor by copying ``data``: a number, a (nested) list or tuple, a NumPy"
        " array or another tensor. The dtype is inferred from the data (bool, int64, the default"
        " float dtype) unless given. Use :func:`as_tensor` or :func:`from_numpy` to avoid the copy.",
        "    data: the values.",
        ">>> engine.tensor([[1, 2], [3, 4]])\ntensor([[1, 2],\n        [3, 4]])\n"
        ">>> engine.tensor(3.5, dtype=engine.float64)\ntensor(3.5000, dtype=torch.float64)",
        _FACTORY.replace(
            "Default: the default dtype\n        (:func:`get_default_dtype`)", "Default: inferred"
        ).replace(", or inferred from the arguments where stated", ""),
    ),
    "from_numpy": entry(
        "from_numpy(ndarray) -> Tensor",
        "A tensor that shares memory with the NumPy array ``ndarray``: writes to one show in the"
        " other, and the array stays alive as long as the tensor. The dtype follows the array's.",
        "    ndarray (numpy.ndarray): the array to wrap.",
        ">>> import numpy as np\n>>> a = np.array([1.0, 2.0])\n>>> t = engine.from_numpy(a)\n"
        ">>> t[0] = 5\n>>> a\narray([5., 2.])",
    ),
    "zeros": _filled(
        "zeros", "zeros", ">>> engine.zeros(2, 3)\ntensor([[0., 0., 0.],\n        [0., 0., 0.]])"
    ),
    "ones": _filled("ones", "ones", ">>> engine.ones(2, dtype=engine.int64)\ntensor([1, 1])"),
    "empty": _filled(
        "empty",
        "uninitialized memory (its values are whatever the memory held)",
        ">>> engine.empty(2, 3).shape\ntorch.Size([2, 3])",
    ),
    "full": entry(
        "full(size, fill_value, *, dtype=None, device=None, requires_grad=False) -> Tensor",
        "A tensor of shape ``size`` filled with ``fill_value``. Without ``dtype`` the dtype is"
        " inferred from ``fill_value`` (bool, int64 or the default float dtype).",
        "    size (list or tuple of ints): the shape.\n    fill_value (Number): the value.",
        ">>> engine.full((2, 2), 7)\ntensor([[7, 7],\n        [7, 7]])",
        _FACTORY,
    ),
    "zeros_like": _like("zeros_like", "zeros"),
    "ones_like": _like("ones_like", "ones"),
    "empty_like": _like("empty_like", "uninitialized memory"),
    "full_like": entry(
        "full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False) -> Tensor",
        "A tensor with the shape (and, unless ``dtype`` is given, the dtype) of ``input``, filled"
        " with ``fill_value``.",
        "    input (Tensor): the tensor whose shape is taken.\n    fill_value (Number): the value.",
        ">>> engine.full_like(engine.zeros(2), 3.5)\ntensor([3.5000, 3.5000])",
        _LIKE,
    ),
    "arange": entry(
        "arange(start=0, end, step=1, *, dtype=None, device=None, requires_grad=False) -> Tensor",
        "A 1-D tensor of the values from ``start`` (included) to ``end`` (excluded) spaced by"
        " ``step``: :math:`\\lceil (end - start) / step \\rceil` elements. With one argument it"
        " is ``end``. The dtype is int64 when all three are integers, else the default float dtype.",
        "    start (Number): the first value. Default: 0.\n    end (Number): the bound, excluded.\n"
        "    step (Number): the gap between neighbours, non-zero. Default: 1.",
        ">>> engine.arange(5)\ntensor([0, 1, 2, 3, 4])\n>>> engine.arange(1, 2.5, 0.5)\n"
        "tensor([1.0000, 1.5000, 2.0000])",
        _FACTORY,
    ),
    "linspace": entry(
        "linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False) -> Tensor",
        "A 1-D tensor of ``steps`` values evenly spaced from ``start`` to ``end``, both included.",
        "    start (Number): the first value.\n    end (Number): the last value.\n"
        "    steps (int): the number of values, ``>= 0``.",
        ">>> engine.linspace(0, 1, 5)\ntensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])",
        _FACTORY,
    ),
    "rand": entry(
        "rand(*size, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor",
        "A tensor of the given shape filled with values drawn uniformly from [0, 1). For the same"
        " seed the values are PyTorch's.",
        _SIZE,
        ">>> _ = engine.manual_seed(0)\n>>> engine.rand(3)\ntensor([0.4963, 0.7682, 0.0885])",
        _GENERATOR + _FACTORY,
    ),
    "randn": entry(
        "randn(*size, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor",
        "A tensor of the given shape filled with values drawn from the standard normal"
        " distribution (mean 0, variance 1). For the same seed the values are PyTorch's.",
        _SIZE,
        ">>> _ = engine.manual_seed(0)\n>>> engine.randn(3)\ntensor([ 1.5410, -0.2934, -2.1788])",
        _GENERATOR + _FACTORY,
    ),
    "randint": entry(
        "randint(low=0, high, size, *, generator=None, dtype=None, device=None,"
        " requires_grad=False) -> Tensor",
        "A tensor of shape ``size`` filled with integers drawn uniformly from [``low``, ``high``)."
        " The dtype is int64 unless given.",
        "    low (int, optional): the smallest value. Default: 0.\n"
        "    high (int): one above the largest value.\n    size (tuple): the shape.",
        ">>> _ = engine.manual_seed(0)\n>>> engine.randint(0, 10, (4,))\ntensor([4, 9, 3, 0])",
        _GENERATOR
        + _FACTORY.replace(
            "the default dtype\n        (:func:`get_default_dtype`), or"
            " inferred from the arguments where stated",
            "int64",
        ),
    ),
    # ---- reductions ----
    "all": _reduction(
        "all",
        "Tests whether all elements (or all along ``dim``) are non-zero; a bool tensor.",
        ">>> engine.all(engine.tensor([[1, 0], [1, 1]]), dim=1)\ntensor([False,  True])",
    ),
    "any": _reduction(
        "any",
        "Tests whether any element (or any along ``dim``) is non-zero; a bool tensor.",
        ">>> engine.any(engine.tensor([[0, 0], [1, 0]]), dim=1)\ntensor([False,  True])",
    ),
    "amax": _reduction(
        "amax",
        "Maximum over ``dim`` (all dimensions by default); unlike :func:`max` it returns no"
        " indices, and its gradient is shared evenly between tied maxima.",
        ">>> engine.amax(engine.tensor([[1.0, 3.0], [4.0, 0.0]]), dim=0)\ntensor([4., 3.])",
    ),
    "amin": _reduction(
        "amin",
        "Minimum over ``dim`` (all dimensions by default); unlike :func:`min` it returns no"
        " indices, and its gradient is shared evenly between tied minima.",
        ">>> engine.amin(engine.tensor([[1.0, 3.0], [4.0, 0.0]]), dim=1)\ntensor([1., 0.])",
    ),
    "argmax": entry(
        "argmax(input, dim=None, keepdim=False) -> Tensor",
        "Index of the largest element: of the flattened tensor, or along ``dim``. The first"
        " index wins among ties; int64.",
        "    input (Tensor): the input tensor.\n"
        "    dim (int, optional): the dimension to reduce. Default: the flattened tensor.\n"
        "    keepdim (bool): whether ``dim`` is kept with size 1. Default: ``False``.",
        ">>> engine.argmax(engine.tensor([[1, 5], [7, 2]]), dim=1)\ntensor([1, 0])",
    ),
    "argmin": entry(
        "argmin(input, dim=None, keepdim=False) -> Tensor",
        "Index of the smallest element: of the flattened tensor, or along ``dim``. The first"
        " index wins among ties; int64.",
        "    input (Tensor): the input tensor.\n"
        "    dim (int, optional): the dimension to reduce. Default: the flattened tensor.\n"
        "    keepdim (bool): whether ``dim`` is kept with size 1. Default: ``False``.",
        ">>> engine.argmin(engine.tensor([[1, 5], [7, 2]]))\ntensor(0)",
    ),
    "max": entry(
        "max(input, dim=None, keepdim=False, *, out=None) -> Tensor or (Tensor, Tensor)\n"
        "max(input, other) -> Tensor",
        "Without ``dim``, the largest element as a 0-d tensor. With ``dim``, a named tuple"
        " ``(values, indices)`` of the maxima along ``dim`` and their positions. With a tensor"
        " ``other``, the same as :func:`maximum`.",
        "    input (Tensor): the input tensor.\n    dim (int, optional): the dimension to reduce.\n"
        "    keepdim (bool): whether ``dim`` is kept with size 1. Default: ``False``.",
        ">>> x = engine.tensor([[1.0, 5.0], [3.0, 2.0]])\n>>> engine.max(x)\ntensor(5.)\n"
        ">>> engine.max(x, 1)\ntorch.return_types.max(\nvalues=tensor([5., 3.]),\n"
        "indices=tensor([1, 0]))",
    ),
    "min": entry(
        "min(input, dim=None, keepdim=False, *, out=None) -> Tensor or (Tensor, Tensor)\n"
        "min(input, other) -> Tensor",
        "Without ``dim``, the smallest element as a 0-d tensor. With ``dim``, a named tuple"
        " ``(values, indices)`` of the minima along ``dim`` and their positions. With a tensor"
        " ``other``, the same as :func:`minimum`.",
        "    input (Tensor): the input tensor.\n    dim (int, optional): the dimension to reduce.\n"
        "    keepdim (bool): whether ``dim`` is kept with size 1. Default: ``False``.",
        ">>> x = engine.tensor([[1.0, 5.0], [3.0, 2.0]])\n>>> engine.min(x)\ntensor(1.)\n"
        ">>> engine.min(x, 0).indices\ntensor([0, 1])",
    ),
    "prod": _reduction(
        "prod",
        "Product of all elements, or over ``dim``. Integer and bool inputs give int64.",
        ">>> engine.prod(engine.tensor([[1.0, 2.0], [3.0, 4.0]]), dim=1)\ntensor([ 2., 12.])",
        dtype=True,
    ),
    "sum": entry(
        "sum(input, dim=None, keepdim=False, *, dtype=None) -> Tensor",
        "Sum of all elements of ``input`` as a 0-d tensor, or over the dimension(s) ``dim``."
        " Integer and bool inputs give int64 unless ``dtype`` says otherwise.",
        "    input (Tensor): the input tensor.\n" + _DIM_KEEPDIM,
        ">>> x = engine.tensor([[1.0, 2.0], [3.0, 4.0]])\n>>> engine.sum(x)\ntensor(10.)\n"
        ">>> engine.sum(x, dim=0)\ntensor([4., 6.])\n>>> engine.sum(x, dim=1, keepdim=True)\n"
        "tensor([[3.],\n        [7.]])",
        "    dtype (engine.dtype, optional): the dtype the input is cast to before summing.",
    ),
    "mean": entry(
        "mean(input, dim=None, keepdim=False, *, dtype=None) -> Tensor",
        "Arithmetic mean of all elements of ``input``, or over the dimension(s) ``dim``. The"
        " input must be floating point (or ``dtype`` must be given).",
        "    input (Tensor): the input tensor.\n" + _DIM_KEEPDIM,
        ">>> engine.mean(engine.tensor([[1.0, 2.0], [3.0, 4.0]]), dim=1)\ntensor([1.5000, 3.5000])",
        "    dtype (engine.dtype, optional): the dtype the input is cast to before averaging.",
    ),
    "logsumexp": _reduction(
        "logsumexp",
        "Computes :math:`\\log \\sum_i e^{x_i}` over ``dim`` without overflow (the largest element"
        " is subtracted first).",
        ">>> engine.logsumexp(engine.tensor([0.0, 0.0]), dim=0)\ntensor(0.6931)",
    ),
    "std": entry(
        "std(input, dim=None, *, correction=1, keepdim=False) -> Tensor",
        "Standard deviation over ``dim`` (all elements by default): the square root of"
        " :func:`var`. ``correction=1`` (Bessel's) divides by ``N - 1``; ``correction=0`` by"
        " ``N``. The older ``unbiased`` (bool) argument is accepted too.",
        "    input (Tensor): the input tensor.\n" + _DIM_KEEPDIM,
        ">>> engine.std(engine.tensor([1.0, 2.0, 3.0, 4.0]))\ntensor(1.2910)",
        "    correction (int): the difference between ``N`` and the divisor. Default: 1.",
    ),
    "var": entry(
        "var(input, dim=None, *, correction=1, keepdim=False) -> Tensor",
        "Variance over ``dim`` (all elements by default): the mean squared deviation from the"
        " mean, divided by ``N - correction``. The older ``unbiased`` (bool) argument is"
        " accepted too.",
        "    input (Tensor): the input tensor.\n" + _DIM_KEEPDIM,
        ">>> engine.var(engine.tensor([1.0, 2.0, 3.0, 4.0]), correction=0)\ntensor(1.2500)",
        "    correction (int): the difference between ``N`` and the divisor. Default: 1.",
    ),
    "cumsum": entry(
        "cumsum(input, dim, *, dtype=None) -> Tensor",
        "Cumulative sum along ``dim``: element ``i`` is the sum of elements ``0..i``. Integer"
        " and bool inputs give int64.",
        "    input (Tensor): the input tensor.\n    dim (int): the dimension to scan.",
        ">>> engine.cumsum(engine.tensor([1, 2, 3]), dim=0)\ntensor([1, 3, 6])",
        "    dtype (engine.dtype, optional): the dtype the input is cast to first.",
    ),
    "cumprod": entry(
        "cumprod(input, dim, *, dtype=None) -> Tensor",
        "Cumulative product along ``dim``: element ``i`` is the product of elements ``0..i``.",
        "    input (Tensor): the input tensor.\n    dim (int): the dimension to scan.",
        ">>> engine.cumprod(engine.tensor([1, 2, 3]), dim=0)\ntensor([1, 2, 6])",
        "    dtype (engine.dtype, optional): the dtype the input is cast to first.",
    ),
    # ---- products ----
    "matmul": entry(
        "matmul(input, other, *, out=None) -> Tensor",
        "Matrix product with NumPy's rules: 1-D by 1-D is a dot product, 2-D by 2-D a matrix"
        " product, a 1-D operand is read as a row (left) or column (right) vector and that"
        " dimension removed afterwards, and batch dimensions (all but the last two) broadcast."
        " The ``@`` operator calls it.",
        "    input (Tensor): the first operand.\n    other (Tensor): the second operand.",
        ">>> a = engine.tensor([[1.0, 2.0], [3.0, 4.0]])\n>>> engine.matmul(a, engine.tensor([1.0, 1.0]))\n"
        "tensor([3., 7.])\n>>> engine.matmul(engine.ones(5, 2, 3), engine.ones(3, 4)).shape\n"
        "torch.Size([5, 2, 4])",
        "    out (Tensor, optional): the output tensor.",
    ),
    "mm": entry(
        "mm(input, mat2) -> Tensor",
        "Matrix product of two 2-D tensors, ``(n, m) @ (m, p) -> (n, p)``, without broadcasting"
        " (see :func:`matmul`).",
        "    input (Tensor): the first matrix.\n    mat2 (Tensor): the second matrix.",
        ">>> engine.mm(engine.tensor([[1.0, 2.0]]), engine.tensor([[3.0], [4.0]]))\ntensor([[11.]])",
    ),
    "bmm": entry(
        "bmm(input, mat2) -> Tensor",
        "Batched matrix product of two 3-D tensors, ``(b, n, m) @ (b, m, p) -> (b, n, p)``,"
        " without broadcasting.",
        "    input (Tensor): the first batch of matrices.\n    mat2 (Tensor): the second batch.",
        ">>> engine.bmm(engine.ones(4, 2, 3), engine.ones(4, 3, 5)).shape\ntorch.Size([4, 2, 5])",
    ),
    "mv": entry(
        "mv(input, vec) -> Tensor",
        "Product of the matrix ``input`` (n, m) and the vector ``vec`` (m,), a vector (n,).",
        "    input (Tensor): the matrix.\n    vec (Tensor): the vector.",
        ">>> engine.mv(engine.tensor([[1.0, 2.0], [3.0, 4.0]]), engine.tensor([1.0, -1.0]))\n"
        "tensor([-1., -1.])",
    ),
    "dot": entry(
        "dot(input, tensor) -> Tensor",
        "Dot product of two 1-D tensors of the same length and dtype, a 0-d tensor.",
        "    input (Tensor): the first vector.\n    tensor (Tensor): the second vector.",
        ">>> engine.dot(engine.tensor([1.0, 2.0]), engine.tensor([3.0, 4.0]))\ntensor(11.)",
    ),
    "outer": entry(
        "outer(input, vec2) -> Tensor",
        "Outer product of two 1-D tensors: ``result[i, j] = input[i] * vec2[j]``. Alias:"
        " :func:`engine.ger`.",
        "    input (Tensor): the first vector.\n    vec2 (Tensor): the second vector.",
        ">>> engine.outer(engine.tensor([1, 2]), engine.tensor([1, 10]))\n"
        "tensor([[ 1, 10],\n        [ 2, 20]])",
    ),
    # ---- shapes and views ----
    "reshape": entry(
        "reshape(input, shape) -> Tensor",
        "A tensor with ``input``'s elements in the given shape: a view when the strides allow,"
        " otherwise a copy. One dimension may be -1 and is then inferred.",
        "    input (Tensor): the input tensor.\n    shape (tuple of ints): the new shape.",
        ">>> engine.reshape(engine.arange(6), (2, -1))\ntensor([[0, 1, 2],\n        [3, 4, 5]])",
    ),
    "permute": entry(
        "permute(input, dims) -> Tensor",
        "A view of ``input`` with its dimensions reordered: dimension ``i`` of the result is"
        " dimension ``dims[i]`` of the input.",
        "    input (Tensor): the input tensor.\n    dims (tuple of ints): a permutation of the dimensions.",
        ">>> engine.permute(engine.zeros(2, 3, 4), (2, 0, 1)).shape\ntorch.Size([4, 2, 3])",
    ),
    "transpose": entry(
        "transpose(input, dim0, dim1) -> Tensor",
        "A view of ``input`` with dimensions ``dim0`` and ``dim1`` swapped; it shares memory with"
        " ``input``. Alias: :func:`engine.swapaxes`.",
        "    input (Tensor): the input tensor.\n    dim0 (int): the first dimension.\n"
        "    dim1 (int): the second dimension.",
        ">>> engine.transpose(engine.zeros(2, 3), 0, 1).shape\ntorch.Size([3, 2])",
    ),
    "t": entry(
        "t(input) -> Tensor",
        "Transposes a tensor of at most 2 dimensions (0-d and 1-d tensors are returned as they"
        " are): ``transpose(input, 0, 1)``.",
        "    input (Tensor): the input tensor.",
        ">>> engine.t(engine.tensor([[1, 2], [3, 4]]))\ntensor([[1, 3],\n        [2, 4]])",
    ),
    "squeeze": entry(
        "squeeze(input, dim=None) -> Tensor",
        "A view of ``input`` without its dimensions of size 1 (or only ``dim``, if it has size 1).",
        "    input (Tensor): the input tensor.\n"
        "    dim (int, optional): the only dimension to remove. Default: all of size 1.",
        ">>> engine.squeeze(engine.zeros(1, 2, 1)).shape\ntorch.Size([2])",
    ),
    "unsqueeze": entry(
        "unsqueeze(input, dim) -> Tensor",
        "A view of ``input`` with a dimension of size 1 inserted at position ``dim`` (negative"
        " ``dim`` counts from the end of the result).",
        "    input (Tensor): the input tensor.\n    dim (int): where the new dimension goes.",
        ">>> engine.unsqueeze(engine.tensor([1, 2]), 1)\ntensor([[1],\n        [2]])",
    ),
    "diagonal": entry(
        "diagonal(input, offset=0, dim1=0, dim2=1) -> Tensor",
        "A view of the diagonal of ``input`` with respect to ``dim1`` and ``dim2``, appended as"
        " the last dimension. ``offset > 0`` selects a diagonal above the main one, ``< 0`` below.",
        "    input (Tensor): a tensor of at least 2 dimensions.\n"
        "    offset (int): which diagonal. Default: 0.\n"
        "    dim1 (int): the first dimension of the matrices. Default: 0.\n"
        "    dim2 (int): the second dimension of the matrices. Default: 1.",
        ">>> x = engine.tensor([[1, 2], [3, 4]])\n>>> engine.diagonal(x)\ntensor([1, 4])\n"
        ">>> engine.diagonal(x, offset=1)\ntensor([2])",
    ),
    "as_strided": entry(
        "as_strided(input, size, stride, storage_offset=None) -> Tensor",
        "A view of ``input``'s memory with the given ``size``, ``stride`` and ``storage_offset``"
        " (in elements, from the start of the memory ``input`` views; by default ``input``'s"
        " own offset). It may repeat elements (a stride of 0) or reach elements that ``input``"
        " itself does not show; the view must stay inside the memory. Its gradient is summed"
        " where the view repeats an element and reaches only ``input``'s own elements"
        " (``AsStridedBackward0``). Prefer ``view``, ``expand`` and slicing where they suffice.",
        "    input (Tensor): the input tensor.\n    size (tuple of ints): the view's shape.\n"
        "    stride (tuple of ints): the view's strides, non-negative.\n"
        "    storage_offset (int, optional): the view's first element in the memory.",
        ">>> x = engine.arange(6.0)\n>>> engine.as_strided(x, (2, 2), (1, 2), 1)\n"
        "tensor([[1., 3.],\n        [2., 4.]])",
    ),
    "narrow": entry(
        "narrow(input, dim, start, length) -> Tensor",
        "A view of ``length`` elements of ``input`` along ``dim``, from ``start``.",
        "    input (Tensor): the input tensor.\n    dim (int): the dimension to narrow.\n"
        "    start (int): the first index.\n    length (int): how many to keep.",
        ">>> engine.narrow(engine.arange(6), 0, 2, 3)\ntensor([2, 3, 4])",
    ),
    "select": entry(
        "select(input, dim, index) -> Tensor",
        "A view of ``input`` at position ``index`` along ``dim``, without that dimension"
        " (``input[:, index]`` for ``dim=1``).",
        "    input (Tensor): the input tensor.\n    dim (int): the dimension.\n"
        "    index (int): the position, negative counting from the end.",
        ">>> engine.select(engine.tensor([[1, 2], [3, 4]]), 1, 0)\ntensor([1, 3])",
    ),
    "cat": entry(
        "cat(tensors, dim=0) -> Tensor",
        "Concatenates tensors along the existing dimension ``dim``; their other sizes must"
        " agree (1-D empty tensors are skipped). The dtype is their promoted dtype. Aliases:"
        " :func:`engine.concat`, :func:`engine.concatenate`.",
        "    tensors (sequence of Tensors): the tensors to join.\n"
        "    dim (int): the dimension to join along. Default: 0.",
        ">>> engine.cat([engine.tensor([1, 2]), engine.tensor([3])])\ntensor([1, 2, 3])",
    ),
    "stack": entry(
        "stack(tensors, dim=0) -> Tensor",
        "Joins tensors of the same shape along a new dimension ``dim``.",
        "    tensors (sequence of Tensors): the tensors to join.\n"
        "    dim (int): where the new dimension goes. Default: 0.",
        ">>> engine.stack([engine.tensor([1, 2]), engine.tensor([3, 4])], dim=1)\n"
        "tensor([[1, 3],\n        [2, 4]])",
    ),
    "where": entry(
        "where(condition, input, other) -> Tensor\nwhere(condition) -> tuple of Tensors",
        "Takes ``input`` where ``condition`` is true and ``other`` elsewhere, all three"
        " broadcast; ``input`` and ``other`` may be numbers. With ``condition`` alone, the same"
        " as ``nonzero(condition, as_tuple=True)``.",
        "    condition (Tensor): a bool tensor.\n"
        "    input (Tensor or Number): the values where ``condition`` holds.\n"
        "    other (Tensor or Number): the values elsewhere.",
        ">>> x = engine.tensor([-1.0, 2.0, -3.0])\n>>> engine.where(x > 0, x, 0.0)\n"
        "tensor([0., 2., 0.])",
    ),
    "clone": entry(
        "clone(input, *, memory_format=engine.preserve_format) -> Tensor",
        "A copy of ``input`` with its own memory. Unlike :meth:`Tensor.detach` the copy stays in"
        " the autograd graph: gradients flow back to ``input``.",
        "    input (Tensor): the input tensor.",
        ">>> a = engine.tensor([1.0, 2.0])\n>>> b = engine.clone(a)\n>>> b[0] = 9\n>>> a\n"
        "tensor([1., 2.])",
        "    memory_format (engine.memory_format): the copy's layout: ``engine.preserve_format``"
        " keeps a\n        channels-last layout and makes other copies contiguous (PyTorch keeps"
        " any dense\n        strides), ``engine.contiguous_format`` or ``engine.channels_last``"
        " (4-D).\n        Default: ``engine.preserve_format``.",
    ),
    "detach": entry(
        "detach(input) -> Tensor",
        "A new tensor that shares ``input``'s memory but is outside the autograd graph"
        " (``requires_grad=False``, no ``grad_fn``).",
        "    input (Tensor): the input tensor.",
        ">>> x = engine.ones(2, requires_grad=True)\n>>> engine.detach(x * 2).requires_grad\nFalse",
    ),
    "numel": entry(
        "numel(input) -> int",
        "The number of elements of ``input``, the product of its sizes.",
        "    input (Tensor): the input tensor.",
        ">>> engine.numel(engine.zeros(2, 3))\n6",
    ),
    # ---- indexing ----
    "gather": entry(
        "gather(input, dim, index) -> Tensor",
        "Takes values of ``input`` along ``dim`` at the positions in ``index``: for ``dim=1``,"
        " ``out[i][j] = input[i][index[i][j]]``. The result has ``index``'s shape.",
        "    input (Tensor): the source tensor.\n    dim (int): the axis to index along.\n"
        "    index (LongTensor): the positions, with as many dimensions as ``input``.",
        ">>> x = engine.tensor([[1, 2], [3, 4]])\n"
        ">>> engine.gather(x, 1, engine.tensor([[0, 0], [1, 0]]))\n"
        "tensor([[1, 1],\n        [4, 3]])",
    ),
    "scatter": entry(
        "scatter(input, dim, index, src) -> Tensor",
        "Out-of-place :meth:`Tensor.scatter_`: a copy of ``input`` where, for ``dim=0``,"
        " ``out[index[i][j]][j] = src[i][j]``; ``src`` may be a number. With repeated indices,"
        " which value lands is unspecified.",
        "    input (Tensor): the tensor copied.\n    dim (int): the axis to index along.\n"
        "    index (LongTensor): the positions.\n    src (Tensor or Number): the values to write.",
        ">>> engine.scatter(engine.zeros(3), 0, engine.tensor([2, 0]), engine.tensor([5.0, 6.0]))\n"
        "tensor([6., 0., 5.])",
    ),
    "scatter_add": entry(
        "scatter_add(input, dim, index, src) -> Tensor",
        "Like :func:`scatter` but adds the values of ``src`` to the indexed positions, summing"
        " repeated indices.",
        "    input (Tensor): the tensor copied.\n    dim (int): the axis to index along.\n"
        "    index (LongTensor): the positions.\n    src (Tensor): the values to add.",
        ">>> engine.scatter_add(engine.zeros(3), 0, engine.tensor([0, 0, 2]), engine.ones(3))\n"
        "tensor([2., 0., 1.])",
    ),
    "index_select": entry(
        "index_select(input, dim, index) -> Tensor",
        "The entries of ``input`` along ``dim`` at the positions in the 1-D ``index``, copied"
        " into a new tensor.",
        "    input (Tensor): the input tensor.\n    dim (int): the dimension to index.\n"
        "    index (LongTensor): the positions (1-D).",
        ">>> engine.index_select(engine.tensor([[1, 2], [3, 4]]), 0, engine.tensor([1, 1]))\n"
        "tensor([[3, 4],\n        [3, 4]])",
    ),
    "index_add": entry(
        "index_add(input, dim, index, source, *, alpha=1) -> Tensor",
        "A copy of ``input`` to which ``alpha * source`` is added at the positions ``index``"
        " along ``dim``; repeated indices accumulate.",
        "    input (Tensor): the tensor copied.\n    dim (int): the dimension to index.\n"
        "    index (LongTensor): the positions (1-D).\n"
        "    source (Tensor): the values, ``index``'s length along ``dim``.",
        ">>> engine.index_add(engine.zeros(3), 0, engine.tensor([0, 0]), engine.tensor([1.0, 2.0]))\n"
        "tensor([3., 0., 0.])",
        "    alpha (Number): the multiplier of ``source``. Default: 1.",
    ),
    "index_copy": entry(
        "index_copy(input, dim, index, source) -> Tensor",
        "A copy of ``input`` whose entries along ``dim`` at the positions ``index`` are replaced"
        " by those of ``source``.",
        "    input (Tensor): the tensor copied.\n    dim (int): the dimension to index.\n"
        "    index (LongTensor): the positions (1-D).\n    source (Tensor): the new values.",
        ">>> engine.index_copy(engine.zeros(3), 0, engine.tensor([2]), engine.tensor([7.0]))\n"
        "tensor([0., 0., 7.])",
    ),
    # ---- dtypes ----
    "get_default_dtype": entry(
        "get_default_dtype() -> engine.dtype",
        "The dtype of floating-point tensors made without an explicit dtype (``float32`` at"
        " start).",
        example=">>> engine.get_default_dtype()\ntorch.float32",
    ),
    "set_default_dtype": entry(
        "set_default_dtype(d) -> None",
        "Sets the dtype floating-point tensors get when none is given (``float32`` or"
        " ``float64``), as :func:`tensor`, :func:`zeros` or :func:`rand` make them.",
        "    d (engine.dtype): the new default floating-point dtype.",
        ">>> engine.set_default_dtype(engine.float64)\n>>> engine.tensor([1.5]).dtype\n"
        "torch.float64\n>>> engine.set_default_dtype(engine.float32)",
    ),
    "promote_types": entry(
        "promote_types(type1, type2) -> engine.dtype",
        "The smallest dtype both ``type1`` and ``type2`` convert to without losing range, as"
        " binary operations use.",
        "    type1 (engine.dtype): the first dtype.\n    type2 (engine.dtype): the second dtype.",
        ">>> engine.promote_types(engine.int32, engine.float32)\ntorch.float32",
    ),
    "result_type": entry(
        "result_type(tensor1, tensor2) -> engine.dtype",
        "The dtype a binary operation on the two operands (tensors or numbers) gives, with"
        " PyTorch's rules: 0-d tensors and numbers only decide the category (bool, integer,"
        " floating).",
        "    tensor1 (Tensor or Number): the first operand.\n"
        "    tensor2 (Tensor or Number): the second operand.",
        ">>> engine.result_type(engine.tensor([1, 2]), 1.0)\ntorch.float32",
    ),
    "can_cast": entry(
        "can_cast(from_, to) -> bool",
        "Whether a cast from ``from_`` to ``to`` is allowed under PyTorch's casting rules (no"
        " float to integer, no non-bool to bool).",
        "    from_ (engine.dtype): the source dtype.\n    to (engine.dtype): the target dtype.",
        ">>> engine.can_cast(engine.float64, engine.int32)\nFalse",
    ),
    "is_tensor": entry(
        "is_tensor(obj) -> bool",
        "Whether ``obj`` is an engine tensor (including a :class:`~engine.nn.Parameter`).",
        "    obj (object): the object to test.",
        ">>> engine.is_tensor(engine.zeros(1)), engine.is_tensor([1])\n(True, False)",
    ),
    "is_floating_point": entry(
        "is_floating_point(input) -> bool",
        "Whether ``input``'s dtype is a floating-point type (float16, bfloat16, float32, float64).",
        "    input (Tensor): the input tensor.",
        ">>> engine.is_floating_point(engine.tensor([1.0]))\nTrue",
    ),
    # ---- global switches ----
    "is_grad_enabled": entry(
        "is_grad_enabled() -> bool",
        "Whether autograd records operations in this thread (see :class:`no_grad`).",
        example=">>> with engine.no_grad():\n...     print(engine.is_grad_enabled())\nFalse",
    ),
    "is_anomaly_enabled": entry(
        "is_anomaly_enabled() -> bool",
        "Whether anomaly detection is on (see :class:`engine.autograd.detect_anomaly`).",
        example=">>> engine.is_anomaly_enabled()\nFalse",
    ),
    "is_anomaly_check_nan_enabled": entry(
        "is_anomaly_check_nan_enabled() -> bool",
        "Whether anomaly detection also raises when a backward function returns NaN.",
        example=">>> engine.is_anomaly_check_nan_enabled()\nTrue",
    ),
    "set_num_threads": entry(
        "set_num_threads(int) -> None",
        "Sets how many threads the native kernels may use for large tensors.",
        "    int (int): the number of threads, at least 1.",
        ">>> n = engine.get_num_threads()\n>>> engine.set_num_threads(1)\n"
        ">>> engine.get_num_threads()\n1\n>>> engine.set_num_threads(n)",
    ),
    # ---- checkpoints (engine/__init__.py, engine/serialization.py) ----
    "save": entry(
        "save(obj, f, pickle_module=pickle, pickle_protocol=2, _use_new_zipfile_serialization=True)"
        " -> None",
        "Saves ``obj`` (tensors, state dicts, nested containers, numbers, strings) to ``f`` in"
        " PyTorch's zip checkpoint format: PyTorch's ``load`` reads what engine writes, and"
        " :func:`load` reads what PyTorch's ``save`` writes. Tensors sharing memory are stored once"
        " and share again when loaded.",
        "    obj (object): what to save.\n"
        "    f (str, os.PathLike or binary file): the destination.\n"
        "    pickle_module (module): the pickler. Default: :mod:`pickle`.\n"
        "    pickle_protocol (int): the pickle protocol. Default: 2.",
        ">>> import io\n>>> buffer = io.BytesIO()\n"
        ">>> engine.save({'weight': engine.tensor([1.0, 2.0])}, buffer)\n>>> _ = buffer.seek(0)\n"
        ">>> engine.load(buffer)\n{'weight': tensor([1., 2.])}",
    ),
    "load": entry(
        "load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None,"
        " **pickle_load_args) -> object",
        "Loads an object saved by :func:`save` or by PyTorch's ``save``. With ``weights_only=True`` (the"
        " default, as in PyTorch) unpickling is restricted to tensors, containers, numbers,"
        " strings and allow-listed globals (:func:`engine.serialization.add_safe_globals`), so an"
        " untrusted file cannot run code.",
        "    f (str, os.PathLike or binary file): a path or a readable, seekable file.\n"
        "    map_location: accepted for compatibility; tensors load on the CPU.\n"
        "    pickle_module (module, optional): the unpickler (only with ``weights_only=False``).",
        ">>> import io\n>>> buffer = io.BytesIO()\n>>> engine.save([engine.ones(2), 3], buffer)\n"
        ">>> _ = buffer.seek(0)\n>>> engine.load(buffer)\n[tensor([1., 1.]), 3]",
        "    weights_only (bool): restrict what can be unpickled. Default: ``True``.\n"
        "    mmap (bool, optional): map the storages from the file instead of reading them.",
    ),
    # ---- Python-level view helpers (engine/_shape_ops.py, engine/_joining.py) ----
    "broadcast_to": entry(
        "broadcast_to(input, size) -> Tensor",
        "A view of ``input`` expanded to ``size`` under the broadcasting rules (no copy; -1 keeps"
        " a size). The same as ``input.expand(size)``.",
        "    input (Tensor): the input tensor.\n    size (tuple of ints): the target shape.",
        ">>> engine.broadcast_to(engine.tensor([1, 2]), (2, 2))\ntensor([[1, 2],\n        [1, 2]])",
    ),
    "chunk": entry(
        "chunk(input, chunks, dim=0) -> tuple of Tensors",
        "Splits ``input`` into at most ``chunks`` views along ``dim``, each of"
        " ``ceil(size / chunks)`` elements but the last, which may be smaller.",
        "    input (Tensor): the tensor to split.\n    chunks (int): the number of chunks.\n"
        "    dim (int): the dimension to split along. Default: 0.",
        ">>> engine.chunk(engine.arange(5), 2)\n(tensor([0, 1, 2]), tensor([3, 4]))",
    ),
    "unsafe_chunk": entry(
        "unsafe_chunk(input, chunks, dim=0) -> tuple of Tensors",
        "Like :func:`chunk`, kept for PyTorch compatibility (the views are not checked against"
        " later in-place changes).",
        "    input (Tensor): the tensor to split.\n    chunks (int): the number of chunks.\n"
        "    dim (int): the dimension to split along. Default: 0.",
        ">>> engine.unsafe_chunk(engine.arange(4), 2)\n(tensor([0, 1]), tensor([2, 3]))",
    ),
    "split": entry(
        "split(tensor, split_size_or_sections, dim=0) -> tuple of Tensors",
        "Splits ``tensor`` into views along ``dim``: chunks of ``split_size_or_sections``"
        " elements (the last may be smaller), or, given a list, chunks of those sizes.",
        "    tensor (Tensor): the tensor to split.\n"
        "    split_size_or_sections (int or list of ints): the chunk size, or each chunk's size.\n"
        "    dim (int): the dimension to split along. Default: 0.",
        ">>> engine.split(engine.arange(5), [1, 4])\n(tensor([0]), tensor([1, 2, 3, 4]))",
    ),
    "unbind": entry(
        "unbind(input, dim=0) -> tuple of Tensors",
        "The slices of ``input`` along ``dim``, each without that dimension.",
        "    input (Tensor): the tensor to take apart.\n    dim (int): the dimension. Default: 0.",
        ">>> engine.unbind(engine.tensor([[1, 2], [3, 4]]))\n(tensor([1, 2]), tensor([3, 4]))",
    ),
    "flatten": entry(
        "flatten(input, start_dim=0, end_dim=-1) -> Tensor",
        "Merges the dimensions ``start_dim`` to ``end_dim`` into one: a view when possible, else"
        " a copy.",
        "    input (Tensor): the input tensor.\n    start_dim (int): the first dimension to merge.\n"
        "    end_dim (int): the last dimension to merge.",
        ">>> engine.flatten(engine.zeros(2, 3, 4), start_dim=1).shape\ntorch.Size([2, 12])",
    ),
    "unflatten": entry(
        "unflatten(input, dim, sizes) -> Tensor",
        "Splits dimension ``dim`` into several of the given ``sizes`` (one may be -1): the"
        " inverse of :func:`flatten`.",
        "    input (Tensor): the input tensor.\n    dim (int): the dimension to split.\n"
        "    sizes (tuple of ints): the new sizes; their product is ``input.size(dim)``.",
        ">>> engine.unflatten(engine.zeros(2, 12), 1, (3, -1)).shape\ntorch.Size([2, 3, 4])",
    ),
    "flip": entry(
        "flip(input, dims) -> Tensor",
        "A copy of ``input`` with the order of elements reversed along each dimension in ``dims``.",
        "    input (Tensor): the input tensor.\n    dims (tuple of ints): the dimensions to reverse.",
        ">>> engine.flip(engine.tensor([[1, 2], [3, 4]]), (1,))\ntensor([[2, 1],\n        [4, 3]])",
    ),
    "roll": entry(
        "roll(input, shifts, dims=None) -> Tensor",
        "Rotates the elements of ``input`` by ``shifts`` along ``dims``: elements that leave one"
        " end come back at the other. Without ``dims`` the tensor is flattened, rolled and"
        " reshaped back.",
        "    input (Tensor): the input tensor.\n    shifts (int or tuple of ints): how far to move.\n"
        "    dims (int or tuple of ints, optional): along which dimensions.",
        ">>> engine.roll(engine.tensor([1, 2, 3, 4]), 1)\ntensor([4, 1, 2, 3])",
    ),
    "diag": entry(
        "diag(input, diagonal=0) -> Tensor",
        "For a 1-D ``input``, a square matrix with it on the given diagonal; for a 2-D"
        " ``input``, its given diagonal as a 1-D tensor.",
        "    input (Tensor): a vector or a matrix.\n"
        "    diagonal (int): 0 the main diagonal, > 0 above it, < 0 below it.",
        ">>> engine.diag(engine.tensor([1, 2]))\ntensor([[1, 0],\n        [0, 2]])",
    ),
    "tril": entry(
        "tril(input, diagonal=0) -> Tensor",
        "The lower triangle of the matrices in ``input`` (its last two dimensions): elements above"
        " the given diagonal are set to 0.",
        "    input (Tensor): the input tensor.\n    diagonal (int): which diagonal bounds the triangle.",
        ">>> engine.tril(engine.ones(2, 2))\ntensor([[1., 0.],\n        [1., 1.]])",
    ),
    "triu": entry(
        "triu(input, diagonal=0) -> Tensor",
        "The upper triangle of the matrices in ``input`` (its last two dimensions): elements below"
        " the given diagonal are set to 0.",
        "    input (Tensor): the input tensor.\n    diagonal (int): which diagonal bounds the triangle.",
        ">>> engine.triu(engine.ones(2, 2))\ntensor([[1., 1.],\n        [0., 1.]])",
    ),
    "masked_fill": entry(
        "masked_fill(input, mask, value) -> Tensor",
        "A copy of ``input`` with ``value`` where the bool ``mask`` (broadcast to ``input``'s"
        " shape) is true.",
        "    input (Tensor): the input tensor.\n    mask (BoolTensor): where to write.\n"
        "    value (Number or 0-d Tensor): the value written.",
        ">>> engine.masked_fill(engine.zeros(3), engine.tensor([True, False, True]), 1.0)\n"
        "tensor([1., 0., 1.])",
    ),
    "take": entry(
        "take(input, index) -> Tensor",
        "The elements of ``input``, read as a flat 1-D tensor, at the positions in ``index``; the"
        " result has ``index``'s shape.",
        "    input (Tensor): the input tensor.\n    index (LongTensor): flat positions.",
        ">>> engine.take(engine.tensor([[1, 2], [3, 4]]), engine.tensor([0, 3]))\ntensor([1, 4])",
    ),
}


def targets(engine):
    return [(engine, DOCS)]
