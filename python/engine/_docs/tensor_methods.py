"""Docstrings of engine.Tensor's methods and properties.

A method that is an engine.* function with ``self`` as its first argument says so in one line
(PyTorch's "See :func:`torch.add`"), after the first sentence of that function's text; an
in-place variant ``x.op_(...)`` points to ``x.op(...)``. The rest are written here."""

from engine._docs import pointwise, torch_functions
from engine._docs._format import entry, in_place, wrap

# Methods documented by the engine.* function of the same name.
SEE_FUNCTION = """
abs acos acosh add all amax amin any arcsin arcsinh arctan arctan2 arctanh argmax argmin as_strided
bitwise_and bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift bitwise_xor bmm ceil
clamp clip clone copysign cos cosh cumprod cumsum deg2rad detach diagonal digamma div dot eq erf
erfc erfinv exp exp2 expm1 fix floor floor_divide fmax fmin fmod frac frexp gather gcd ge ger
greater heaviside hypot i0 igamma igammac index_add index_copy index_select is_floating_point
isfinite isinf isnan lcm le lerp less lgamma log log10 log1p log2 logaddexp logaddexp2
logical_and logical_not logical_or logical_xor logit logsumexp matmul max maximum mean min
minimum mm mul mv narrow ne neg nextafter numel permute polygamma pow prod rad2deg reciprocal relu
remainder reshape round rsqrt scatter scatter_add select sigmoid sgn sign signbit sin sinc sinh sqrt
squeeze std sub sum t tan tanh transpose unsqueeze var xlogy
""".split()

# In-place variants: ``x.name_(...)`` is ``x.name(...)`` written into x.
IN_PLACE = """
abs_ acos_ add_ arcsin_ arctan_ arctan2_ bitwise_and_ bitwise_left_shift_ bitwise_not_
bitwise_or_ bitwise_right_shift_ bitwise_xor_ ceil_ clamp_ clip_ cos_ cosh_ div_ erf_ exp_ exp2_
expm1_ fix_ floor_ floor_divide_ fmod_ index_add_ index_copy_ lerp_ log_ log10_ log1p_ log2_
logical_not_ masked_fill_ maximum_ minimum_ mul_ neg_ pow_ reciprocal_ relu_ remainder_ round_
rsqrt_ scatter_add_ sigmoid_ sgn_ sign_ sin_ sinh_ sqrt_ sub_ tan_ tanh_
""".split()

_CONVERSIONS = {
    "float": "float32",
    "double": "float64",
    "half": "float16",
    "bfloat16": "bfloat16",
    "int": "int32",
    "long": "int64",
    "short": "int16",
    "char": "int8",
    "byte": "uint8",
    "bool": "bool",
}


def _summary(name):
    """The first sentence of the engine.* function's description, or ''."""
    text = pointwise.DOCS.get(name) or torch_functions.DOCS.get(name) or ""
    paragraphs = text.split("\n\n")
    if len(paragraphs) < 2:
        return ""
    first = paragraphs[1].replace("\n", " ")
    end = first.find(". ")
    return first if end < 0 else first[: end + 1]


def _see(name):
    summary = _summary(name)
    return (wrap(summary) + "\n\n" if summary else "") + f"See :func:`engine.{name}`."


DOCS = {
    # ---- properties ----
    "shape": entry(
        "Tensor.shape -> Size",
        "The sizes of the tensor's dimensions, a :class:`engine.Size` (a tuple); the same as"
        " :meth:`size`.",
        example=">>> engine.zeros(2, 3).shape\ntorch.Size([2, 3])",
    ),
    "dtype": entry(
        "Tensor.dtype -> engine.dtype",
        "The tensor's element type.",
        example=">>> engine.tensor([1, 2]).dtype\ntorch.int64",
    ),
    "ndim": entry(
        "Tensor.ndim -> int",
        "The number of dimensions; the same as :meth:`dim`.",
        example=">>> engine.zeros(2, 3).ndim\n2",
    ),
    "layout": entry(
        "Tensor.layout -> engine.layout",
        "The memory layout: always ``engine.strided`` (dense tensors with strides).",
        example=">>> engine.zeros(1).layout\ntorch.strided",
    ),
    "is_cpu": entry(
        "Tensor.is_cpu -> bool", "Whether the tensor lives in CPU memory (always ``True``)."
    ),
    "T": entry(
        "Tensor.T -> Tensor",
        "The tensor with its dimensions reversed (``permute(n-1, ..., 0)``), a view. PyTorch"
        " deprecates it for tensors of other than 2 dimensions; prefer :attr:`mT`.",
        example=">>> engine.tensor([[1, 2]]).T\ntensor([[1],\n        [2]])",
    ),
    "mT": entry(
        "Tensor.mT -> Tensor",
        "A view with the last two dimensions swapped: the transpose of each matrix in a batch.",
        example=">>> engine.zeros(5, 2, 3).mT.shape\ntorch.Size([5, 3, 2])",
    ),
    "H": entry(
        "Tensor.H -> Tensor",
        "The conjugate transpose of a matrix (for real tensors the transpose, :attr:`T` of a"
        " 2-D tensor).",
        example=">>> engine.tensor([[1, 2]]).H.shape\ntorch.Size([2, 1])",
    ),
    "mH": entry(
        "Tensor.mH -> Tensor",
        "The conjugate transpose of each matrix in a batch (for real tensors the same as"
        " :attr:`mT`).",
        example=">>> engine.zeros(5, 2, 3).mH.shape\ntorch.Size([5, 3, 2])",
    ),
    "requires_grad": entry(
        "Tensor.requires_grad -> bool",
        "Whether autograd records operations on this tensor so that gradients can flow to it."
        " Settable on leaf tensors only (see :meth:`requires_grad_`).",
        example=">>> x = engine.ones(2)\n>>> x.requires_grad = True\n>>> (x * 2).requires_grad\nTrue",
    ),
    "grad": entry(
        "Tensor.grad -> Tensor or None",
        "The gradient accumulated into this leaf tensor by :meth:`backward` (``None`` until the"
        " first backward). Settable, e.g. to ``None`` to reset it. Non-leaf tensors keep one only"
        " after :meth:`retain_grad`.",
        example=">>> x = engine.tensor([1.0, 2.0], requires_grad=True)\n>>> (x * x).sum().backward()\n"
        ">>> x.grad\ntensor([2., 4.])",
    ),
    "grad_fn": entry(
        "Tensor.grad_fn -> Node or None",
        "The autograd node that made this tensor (``None`` for leaves and tensors outside the"
        " graph). Its ``next_functions`` lead to the inputs' nodes.",
        example=">>> x = engine.ones(2, requires_grad=True)\n>>> type((x * 2).grad_fn).__name__\n"
        "'MulBackward0'",
    ),
    "is_leaf": entry(
        "Tensor.is_leaf -> bool",
        "Whether the tensor is a leaf of the autograd graph: it does not require grad, or it"
        " requires grad and was made by the user (not by an operation). Only leaves get"
        " :attr:`grad` filled in by default.",
        example=">>> x = engine.ones(2, requires_grad=True)\n>>> x.is_leaf, (x * 2).is_leaf\n(True, False)",
    ),
    "grad_dtype": entry(
        "Tensor.grad_dtype -> dtype or None",
        "The dtype of the gradient of this leaf tensor: the gradient backward computes is cast to"
        " it before it is accumulated into :attr:`grad`, and assigning :attr:`grad` a tensor of"
        " another dtype is refused. By default it is the tensor's own dtype; ``None`` keeps"
        " gradients in whatever dtype they arrive. Only leaves have it (reading or setting it on"
        " another tensor raises), and it cannot be changed to a dtype other than that of a"
        " gradient already present.",
        example=">>> x = engine.tensor([1.0, 2.0], requires_grad=True)\n>>> x.grad_dtype\n"
        "torch.float32\n>>> x.grad_dtype = engine.float64\n>>> (x * 2).sum().backward()\n"
        ">>> x.grad.dtype\ntorch.float64",
    ),
    "retains_grad": entry(
        "Tensor.retains_grad -> bool",
        "Whether :meth:`retain_grad` was called on this non-leaf tensor, so that backward fills"
        " its :attr:`grad`.",
    ),
    "output_nr": entry(
        "Tensor.output_nr -> int",
        "The position of this tensor among the outputs of its :attr:`grad_fn` (0 for leaves).",
    ),
    "data": entry(
        "Tensor.data -> Tensor",
        "The same data outside autograd: a tensor sharing memory that does not require grad."
        " Assigning a tensor to ``x.data`` replaces x's contents. Prefer :meth:`detach` and"
        " :class:`engine.no_grad`, which autograd can check.",
    ),
    # ---- autograd ----
    "backward": entry(
        "backward(gradient=None, retain_graph=None, create_graph=False, inputs=None) -> None",
        "Accumulates into each leaf's :attr:`grad` the gradient of this tensor with respect to"
        " it. A tensor of more than one element needs ``gradient``, the vector of the"
        " vector-Jacobian product; the graph is freed afterwards unless ``retain_graph=True``."
        " The same as ``engine.autograd.backward(self, gradient, ...)``.",
        "    gradient (Tensor, optional): the gradient with respect to this tensor, its shape.\n"
        "    retain_graph (bool, optional): keep the graph for another backward. Default:\n"
        "        ``create_graph``.\n"
        "    create_graph (bool): record the backward pass for higher derivatives.\n"
        "    inputs (sequence of Tensors, optional): accumulate into these tensors only.",
        ">>> x = engine.tensor([1.0, 2.0], requires_grad=True)\n>>> y = x * x\n"
        ">>> y.backward(engine.tensor([1.0, 0.5]))\n>>> x.grad\ntensor([2., 2.])",
    ),
    "register_hook": entry(
        "register_hook(hook) -> RemovableHandle",
        "Registers ``hook(grad)``, called with this tensor's gradient each time backward"
        " computes it. The hook may return a new gradient, which replaces it (for the"
        " accumulation into ``grad`` and for the rest of the graph), or ``None`` to keep it. The"
        " handle's ``remove()`` unregisters it.",
        "    hook (callable): ``hook(grad) -> Tensor or None``.",
        ">>> x = engine.tensor([1.0, 2.0], requires_grad=True)\n"
        ">>> handle = x.register_hook(lambda grad: grad * 10)\n>>> (x * 2).sum().backward()\n"
        ">>> x.grad\ntensor([20., 20.])\n>>> handle.remove()",
    ),
    "register_post_accumulate_grad_hook": entry(
        "register_post_accumulate_grad_hook(hook) -> RemovableHandle",
        "Registers ``hook(tensor)`` on a leaf, called after backward has accumulated the"
        " gradient into its :attr:`grad`; useful to update a parameter as soon as its gradient"
        " is ready (an optimizer step inside backward, gradient all-reduce).",
        "    hook (callable): ``hook(tensor) -> None``.",
        ">>> w = engine.tensor([1.0], requires_grad=True)\n"
        ">>> _ = w.register_post_accumulate_grad_hook(lambda p: print(p.grad))\n"
        ">>> (w * 3).sum().backward()\ntensor([3.])",
    ),
    # ---- methods written here ----
    "size": entry(
        "size(dim=None) -> Size or int",
        "The shape as a :class:`engine.Size`, or the size of dimension ``dim``.",
        "    dim (int, optional): the dimension whose size is returned.",
        ">>> x = engine.zeros(2, 3)\n>>> x.size()\ntorch.Size([2, 3])\n>>> x.size(-1)\n3",
    ),
    "stride": entry(
        "stride(dim=None) -> tuple or int",
        "How many elements one step along each dimension skips in memory, or along ``dim``.",
        "    dim (int, optional): the dimension whose stride is returned.",
        ">>> engine.zeros(2, 3).stride()\n(3, 1)\n>>> engine.zeros(2, 3).t().stride()\n(1, 3)",
    ),
    "dim": entry(
        "dim() -> int",
        "The number of dimensions.",
        example=">>> engine.zeros(2, 3).dim()\n2",
    ),
    "nelement": entry(
        "nelement() -> int",
        "The number of elements; alias of :meth:`numel`.",
        example=">>> engine.zeros(2, 3).nelement()\n6",
    ),
    "element_size": entry(
        "element_size() -> int",
        "The size of one element in bytes.",
        example=">>> engine.zeros(1, dtype=engine.float64).element_size()\n8",
    ),
    "data_ptr": entry(
        "data_ptr() -> int",
        "The address of the tensor's first element in memory.",
    ),
    "is_contiguous": entry(
        "is_contiguous(memory_format=engine.contiguous_format) -> bool",
        "Whether the elements lie in memory in row-major order without gaps.",
        example=">>> x = engine.zeros(2, 3)\n>>> x.is_contiguous(), x.t().is_contiguous()\n(True, False)",
    ),
    "contiguous": entry(
        "contiguous(memory_format=engine.contiguous_format) -> Tensor",
        "The tensor itself if it is contiguous, else a contiguous copy with the same values.",
        example=">>> engine.zeros(2, 3).t().contiguous().stride()\n(2, 1)",
    ),
    "item": entry(
        "item() -> number",
        "The value of a one-element tensor as a Python number (``float``, ``int`` or ``bool``).",
        example=">>> engine.tensor([2.5]).item()\n2.5",
    ),
    "tolist": entry(
        "tolist() -> list or number",
        "The tensor's values as nested Python lists of numbers (a number for a 0-d tensor).",
        example=">>> engine.tensor([[1, 2], [3, 4]]).tolist()\n[[1, 2], [3, 4]]",
    ),
    "numpy": entry(
        "numpy(*, force=False) -> numpy.ndarray",
        "A NumPy array sharing the tensor's memory. Tensors that require grad refuse unless"
        " ``force=True`` (which detaches first, as PyTorch does).",
        keywords="    force (bool): detach (and copy where needed) instead of refusing.",
        example=">>> engine.tensor([1.0, 2.0]).numpy()\narray([1., 2.], dtype=float32)",
    ),
    "to": entry(
        "to(dtype, non_blocking=False, copy=False) -> Tensor\n"
        "to(device=None, dtype=None, non_blocking=False, copy=False) -> Tensor\n"
        "to(other, non_blocking=False, copy=False) -> Tensor",
        "The tensor converted to ``dtype`` (and/or ``device``, or ``other``'s dtype). When"
        " nothing changes the tensor itself is returned, unless ``copy=True``. The conversion is"
        " differentiable.",
        "    dtype (engine.dtype): the target dtype.\n"
        "    device (str or engine.device): only ``'cpu'`` is supported.\n"
        "    other (Tensor): the tensor whose dtype is taken.\n"
        "    copy (bool): always return a new tensor.",
        ">>> engine.tensor([1.7, -1.7]).to(engine.int64)\ntensor([ 1, -1])",
    ),
    "type_as": entry(
        "type_as(tensor) -> Tensor",
        "The tensor converted to ``tensor``'s dtype: ``self.to(tensor.dtype)``.",
        "    tensor (Tensor): the tensor whose dtype is taken.",
        ">>> engine.tensor([1.5]).type_as(engine.tensor([1]))\ntensor([1])",
    ),
    "cpu": entry(
        "cpu(memory_format=engine.preserve_format) -> Tensor",
        "The tensor in CPU memory: every engine tensor already is, so it is returned as is.",
    ),
    "cuda": entry(
        "cuda(device=None, non_blocking=False) -> Tensor",
        "Would copy the tensor to a CUDA device; engine runs on the CPU only, so it raises, as"
        " PyTorch built without CUDA does.",
    ),
    "view": entry(
        "view(*shape) -> Tensor\nview(dtype) -> Tensor",
        "A tensor sharing this one's memory with another shape (one size may be -1). The strides"
        " must allow it (a contiguous tensor always does); otherwise use :meth:`reshape`. Given"
        " a dtype, the same bytes read as that dtype (no gradient flows through it): with a"
        " different element size the last dim (stride 1) grows or shrinks by the size ratio, as"
        " in PyTorch; as bool, bytes other than 0 and 1 raise (PyTorch would make an invalid"
        " bool tensor).",
        "    *shape (ints or a tuple): the new shape.\n    dtype (engine.dtype): the element type.",
        ">>> x = engine.arange(6)\n>>> v = x.view(2, 3)\n>>> v[0, 0] = 9\n>>> x[0]\ntensor(9)"
        "\n>>> engine.tensor([1.0]).view(engine.int32)\ntensor([1065353216], dtype=torch.int32)",
    ),
    "storage_offset": entry(
        "storage_offset() -> int",
        "The offset, in elements, of this tensor's first element in its storage (nonzero for"
        " views such as slices).",
        "",
        ">>> engine.arange(6)[2:].storage_offset()\n2",
    ),
    "view_as": entry(
        "view_as(other) -> Tensor",
        "``self.view(other.size())``.",
        "    other (Tensor): the tensor whose shape is taken.",
        ">>> engine.arange(4).view_as(engine.zeros(2, 2)).shape\ntorch.Size([2, 2])",
    ),
    "reshape_as": entry(
        "reshape_as(other) -> Tensor",
        "``self.reshape(other.size())``: a view when possible, else a copy.",
        "    other (Tensor): the tensor whose shape is taken.",
        ">>> engine.arange(4).reshape_as(engine.zeros(2, 2)).shape\ntorch.Size([2, 2])",
    ),
    "expand": entry(
        "expand(*sizes) -> Tensor",
        "A view with size-1 dimensions repeated to ``sizes`` without copying (their stride"
        " becomes 0); -1 keeps a size and new dimensions may be added in front. Writing into"
        " the result writes the shared elements several times: :meth:`clone` it first.",
        "    *sizes (ints or a tuple): the target shape.",
        ">>> engine.tensor([[1], [2]]).expand(2, 3)\ntensor([[1, 1, 1],\n        [2, 2, 2]])",
    ),
    "expand_as": entry(
        "expand_as(other) -> Tensor",
        "``self.expand(other.size())``.",
        "    other (Tensor): the tensor whose shape is taken.",
        ">>> engine.tensor([1]).expand_as(engine.zeros(3))\ntensor([1, 1, 1])",
    ),
    "repeat": entry(
        "repeat(*repeats) -> Tensor",
        "A new tensor with this one tiled ``repeats[i]`` times along dimension ``i`` (extra"
        " leading entries add dimensions). Unlike :meth:`expand` it copies.",
        "    *repeats (ints or a tuple): the number of copies along each dimension.",
        ">>> engine.tensor([1, 2]).repeat(2, 2)\ntensor([[1, 2, 1, 2],\n        [1, 2, 1, 2]])",
    ),
    "unfold": entry(
        "unfold(dimension, size, step) -> Tensor",
        "A view of all windows of ``size`` elements along ``dimension``, ``step`` apart; the"
        " windows index that dimension and a new last dimension of length ``size`` holds each.",
        "    dimension (int): the dimension to slide along.\n    size (int): the window length.\n"
        "    step (int): the distance between windows, > 0.",
        ">>> engine.tensor([1, 2, 3, 4]).unfold(0, 2, 1)\n"
        "tensor([[1, 2],\n        [2, 3],\n        [3, 4]])",
    ),
    "where": entry(
        "where(condition, y) -> Tensor",
        "``engine.where(condition, self, y)``: this tensor's elements where ``condition`` holds,"
        " ``y``'s elsewhere.",
        "    condition (BoolTensor): where to keep ``self``.\n"
        "    y (Tensor or Number): the values elsewhere.",
        ">>> x = engine.tensor([1.0, 3.0])\n>>> x.where(x > 2, 0.0)\ntensor([0., 3.])",
    ),
    "clamp_min": entry(
        "clamp_min(min) -> Tensor",
        "``self.clamp(min=min)``: each element, or ``min`` where it is smaller.",
        "    min (Number or Tensor): the lower bound.",
        ">>> engine.tensor([1.0, 3.0]).clamp_min(2)\ntensor([2., 3.])",
    ),
    "clamp_max": entry(
        "clamp_max(max) -> Tensor",
        "``self.clamp(max=max)``: each element, or ``max`` where it is larger.",
        "    max (Number or Tensor): the upper bound.",
        ">>> engine.tensor([1.0, 3.0]).clamp_max(2)\ntensor([1., 2.])",
    ),
    # ---- in-place methods with their own text ----
    "copy_": entry(
        "copy_(src, non_blocking=False) -> Tensor",
        "Copies the elements of ``src`` (broadcast to this tensor's shape, converted to its"
        " dtype) into this tensor, and returns it.",
        "    src (Tensor): the values to copy.",
        ">>> x = engine.zeros(2, 2)\n>>> x.copy_(engine.tensor([1.0, 2.0]))\n"
        "tensor([[1., 2.],\n        [1., 2.]])",
    ),
    "set_": entry(
        "set_(source=None, storage_offset=0, size=None, stride=None) -> Tensor",
        "Makes this tensor look at ``source``'s memory, in place, and returns it: with ``source``"
        " alone, with its shape, strides and offset; with ``storage_offset`` and ``size`` (and"
        " ``stride``, contiguous when omitted), with that geometry in ``source``'s memory; with no"
        " argument, at fresh empty memory of shape ``(0,)``. The tensor keeps its identity and"
        " version counter (moved on by one); a leaf gets a new gradient accumulator, so graphs"
        " recorded before no longer count as using it.",
        "    source (Tensor): the tensor whose memory to use (same dtype).\n"
        "    storage_offset (int): offset, in elements, into that memory.\n"
        "    size (tuple of ints): the new shape.\n"
        "    stride (tuple of ints, optional): the new strides, in elements.",
        ">>> a = engine.arange(6.0)\n>>> engine.empty(0).set_(a, 1, (2, 2))\n"
        "tensor([[1., 2.],\n        [3., 4.]])",
    ),
    "fill_": entry(
        "fill_(value) -> Tensor",
        "Fills this tensor with ``value`` and returns it.",
        "    value (Number or 0-d Tensor): the value.",
        ">>> engine.zeros(2).fill_(3)\ntensor([3., 3.])",
    ),
    "zero_": entry(
        "zero_() -> Tensor",
        "Fills this tensor with zeros and returns it.",
        example=">>> engine.ones(2).zero_()\ntensor([0., 0.])",
    ),
    "uniform_": entry(
        "uniform_(from=0, to=1, *, generator=None) -> Tensor",
        "Fills this tensor with values drawn uniformly from [``from``, ``to``) and returns it.",
        "    from (float): the lower bound. Default: 0.\n    to (float): the upper bound. Default: 1.",
        ">>> x = engine.empty(1000).uniform_(-2, 2)\n>>> bool(x.min() >= -2) and bool(x.max() < 2)\nTrue",
        "    generator (engine.Generator, optional): the generator to draw from.",
    ),
    "normal_": entry(
        "normal_(mean=0, std=1, *, generator=None) -> Tensor",
        "Fills this tensor with values drawn from the normal distribution N(``mean``, ``std``²)"
        " and returns it.",
        "    mean (float): the mean. Default: 0.\n    std (float): the standard deviation. Default: 1.",
        ">>> engine.empty(3).normal_(5, 0).tolist()\n[5.0, 5.0, 5.0]",
        "    generator (engine.Generator, optional): the generator to draw from.",
    ),
    "scatter_": entry(
        "scatter_(dim, index, src, *, reduce=None) -> Tensor",
        "Writes the values of ``src`` into this tensor at the positions in ``index`` along"
        " ``dim`` (for ``dim=0``, ``self[index[i][j]][j] = src[i][j]``) and returns it. ``src``"
        " may be a number. With ``reduce='add'`` or ``'multiply'`` the values are combined with"
        " the ones present instead.",
        "    dim (int): the axis to index along.\n    index (LongTensor): the positions.\n"
        "    src (Tensor or Number): the values to write.",
        ">>> engine.zeros(3).scatter_(0, engine.tensor([2]), engine.tensor([5.0]))\n"
        "tensor([0., 0., 5.])",
        "    reduce (str, optional): ``'add'`` or ``'multiply'``.",
    ),
    "requires_grad_": entry(
        "requires_grad_(requires_grad=True) -> Tensor",
        "Sets :attr:`requires_grad` of this leaf tensor in place and returns it.",
        "    requires_grad (bool): whether autograd should record operations on it.",
        ">>> engine.zeros(2).requires_grad_().requires_grad\nTrue",
    ),
    "retain_grad": entry(
        "retain_grad() -> None",
        "Makes this non-leaf tensor keep its gradient in :attr:`grad` during :meth:`backward`"
        " (leaves always do).",
        example=">>> x = engine.tensor([1.0, 2.0], requires_grad=True)\n>>> y = x * 3\n"
        ">>> y.retain_grad()\n>>> y.sum().backward()\n>>> y.grad\ntensor([1., 1.])",
    ),
    "detach_": entry(
        "detach_() -> Tensor",
        "Detaches this tensor from the graph in place: it becomes a leaf that does not require"
        " grad. Views cannot be detached in place.",
    ),
}

for _name, _dtype in _CONVERSIONS.items():
    DOCS[_name] = entry(
        f"{_name}(memory_format=engine.preserve_format) -> Tensor",
        f"``self.to(engine.{_dtype})``: the tensor as {_dtype} (itself if it already is).",
    )
for _name in SEE_FUNCTION:
    if _name not in DOCS:
        DOCS[_name] = _see(_name)
for _name in IN_PLACE:
    if _name not in DOCS:
        DOCS[_name] = in_place(_name[:-1])

CLASS_DOC = """A multi-dimensional array of one dtype, with the autograd bookkeeping.

Make tensors with :func:`engine.tensor`, :func:`engine.zeros`, :func:`engine.rand`,
:func:`engine.arange`, ... Operations on them are the functions of ``engine`` (``x.exp()`` is
``engine.exp(x)``) and Python's operators; those whose name ends in ``_`` change the tensor in
place. A tensor with ``requires_grad=True`` records the operations that use it, so that
:meth:`backward` computes gradients into the leaves' :attr:`grad`.

Example::

    >>> x = engine.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    >>> y = (x @ x).sum()
    >>> y.backward()
    >>> x.grad
    tensor([[ 7., 11.],
            [ 9., 13.]])"""


def targets(engine):
    return [(engine.Tensor, DOCS)]
