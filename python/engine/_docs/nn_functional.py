"""Docstrings of engine.nn.functional's activations, losses and dropout defined in
engine/nn/functional.py."""

from engine._docs._format import entry

_REDUCTION = (
    "    reduction (str): ``'none'`` (one loss per element), ``'mean'`` or ``'sum'``."
    " Default: ``'mean'``.\n"
    "    size_average, reduce: deprecated forms of ``reduction``, as in PyTorch."
)
_LOSS_ARGS = (
    "    input (Tensor): the predictions.\n    target (Tensor): the targets, ``input``'s shape.\n"
)
_INPLACE = "    inplace (bool): write the result into ``input``. Default: ``False``."

DOCS = {
    "linear": entry(
        "linear(input, weight, bias=None) -> Tensor",
        "Affine map ``input @ weight.T + bias`` over the last dimension of ``input``, computed as"
        " one matrix product (and one graph node).",
        "    input (Tensor): (*, in_features).\n    weight (Tensor): (out_features, in_features).\n"
        "    bias (Tensor, optional): (out_features). Default: ``None``.",
        ">>> x = engine.tensor([[1.0, 2.0]])\n>>> w = engine.tensor([[1.0, 1.0], [0.0, 2.0]])\n"
        ">>> engine.nn.functional.linear(x, w, engine.tensor([0.5, 0.0]))\ntensor([[3.5000, 4.0000]])",
    ),
    "relu": entry(
        "relu(input, inplace=False) -> Tensor",
        "Rectified linear unit, :math:`\\max(0, x)` for each element.",
        "    input (Tensor): the input tensor.\n" + _INPLACE,
        ">>> engine.nn.functional.relu(engine.tensor([-1.0, 2.0]))\ntensor([0., 2.])",
    ),
    "silu": entry(
        "silu(input, inplace=False) -> Tensor",
        "Sigmoid linear unit (swish), :math:`x \\cdot \\sigma(x)` for each element.",
        "    input (Tensor): the input tensor.\n" + _INPLACE,
        ">>> engine.nn.functional.silu(engine.tensor([0.0, 1.0]))\ntensor([0.0000, 0.7311])",
    ),
    "gelu": entry(
        "gelu(input, approximate='none') -> Tensor",
        "Gaussian error linear unit, :math:`x \\Phi(x)` with :math:`\\Phi` the standard normal"
        " CDF; ``approximate='tanh'`` uses the tanh approximation"
        " :math:`0.5 x (1 + \\tanh(\\sqrt{2/\\pi} (x + 0.044715 x^3)))`.",
        "    input (Tensor): the input tensor.\n"
        "    approximate (str): ``'none'`` or ``'tanh'``. Default: ``'none'``.",
        ">>> engine.nn.functional.gelu(engine.tensor([0.0, 1.0]))\ntensor([0.0000, 0.8413])",
    ),
    "softmax": entry(
        "softmax(input, dim=None, dtype=None) -> Tensor",
        "Softmax along ``dim``: :math:`e^{x_i} / \\sum_j e^{x_j}`, so that each slice along"
        " ``dim`` is positive and sums to 1. Computed stably (the maximum is subtracted first).",
        "    input (Tensor): the input tensor.\n"
        "    dim (int): the dimension to normalise over (leaving it out is deprecated).\n"
        "    dtype (engine.dtype, optional): the dtype the input is cast to first.",
        ">>> engine.nn.functional.softmax(engine.tensor([1.0, 2.0, 3.0]), dim=0)\n"
        "tensor([0.0900, 0.2447, 0.6652])",
    ),
    "log_softmax": entry(
        "log_softmax(input, dim=None, dtype=None) -> Tensor",
        "Logarithm of the softmax along ``dim``, :math:`x_i - \\log \\sum_j e^{x_j}`, computed"
        " directly (more accurate than ``softmax(x).log()``).",
        "    input (Tensor): the input tensor.\n"
        "    dim (int): the dimension to normalise over (leaving it out is deprecated).\n"
        "    dtype (engine.dtype, optional): the dtype the input is cast to first.",
        ">>> engine.nn.functional.log_softmax(engine.tensor([0.0, 0.0]), dim=0)\n"
        "tensor([-0.6931, -0.6931])",
    ),
    "dropout": entry(
        "dropout(input, p=0.5, training=True, inplace=False) -> Tensor",
        "During training, zeroes each element with probability ``p`` and scales the others by"
        " :math:`1 / (1 - p)`, so that the expectation is unchanged. With ``training=False`` it"
        " returns ``input``.",
        "    input (Tensor): the input tensor.\n"
        "    p (float): the probability of an element being zeroed, in [0, 1]. Default: 0.5.\n"
        "    training (bool): apply dropout (else identity). Default: ``True``.\n" + _INPLACE,
        ">>> x = engine.ones(4)\n>>> engine.nn.functional.dropout(x, p=0.5, training=False)\n"
        "tensor([1., 1., 1., 1.])\n>>> y = engine.nn.functional.dropout(x, p=0.5)\n"
        ">>> sorted(set(y.tolist())) in ([0.0], [2.0], [0.0, 2.0])\nTrue",
    ),
    "one_hot": entry(
        "one_hot(tensor, num_classes=-1) -> LongTensor",
        "One-hot encoding of an int64 tensor of class indices: a tensor with one more dimension"
        " of length ``num_classes``, 1 at each index and 0 elsewhere. With ``num_classes=-1``"
        " it is one more than the largest index.",
        "    tensor (LongTensor): the class indices, ``>= 0``.\n"
        "    num_classes (int): the number of classes. Default: -1 (inferred).",
        ">>> engine.nn.functional.one_hot(engine.tensor([0, 2]), 3)\n"
        "tensor([[1, 0, 0],\n        [0, 0, 1]])",
    ),
    "mse_loss": entry(
        "mse_loss(input, target, size_average=None, reduce=None, reduction='mean', weight=None)"
        " -> Tensor",
        "Mean squared error :math:`(x - y)^2` between each element of ``input`` and ``target``"
        " (which broadcast), reduced as ``reduction`` says; ``weight`` scales each element's"
        " loss.",
        _LOSS_ARGS + _REDUCTION + "\n    weight (Tensor, optional): per-element weights.",
        ">>> engine.nn.functional.mse_loss(engine.tensor([1.0, 2.0]), engine.tensor([1.0, 4.0]))\n"
        "tensor(2.)",
    ),
    "l1_loss": entry(
        "l1_loss(input, target, size_average=None, reduce=None, reduction='mean') -> Tensor",
        "Mean absolute error :math:`|x - y|` between each element of ``input`` and ``target``,"
        " reduced as ``reduction`` says.",
        _LOSS_ARGS + _REDUCTION,
        ">>> engine.nn.functional.l1_loss(engine.tensor([1.0, 2.0]), engine.tensor([0.0, 4.0]),"
        " reduction='none')\ntensor([1., 2.])",
    ),
    "binary_cross_entropy": entry(
        "binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,"
        " reduction='mean') -> Tensor",
        "Binary cross entropy :math:`-w (y \\log x + (1 - y) \\log(1 - x))` between probabilities"
        " ``input`` in [0, 1] and targets ``target`` in [0, 1]; the logarithms are clamped at"
        " -100, as PyTorch does, so that certain wrong predictions give a finite loss.",
        _LOSS_ARGS
        + "    weight (Tensor, optional): a weight broadcast to ``input``.\n"
        + _REDUCTION,
        ">>> p = engine.tensor([0.9, 0.2])\n"
        ">>> engine.nn.functional.binary_cross_entropy(p, engine.tensor([1.0, 0.0]))\n"
        "tensor(0.1643)",
    ),
    "binary_cross_entropy_with_logits": entry(
        "binary_cross_entropy_with_logits(input, target, weight=None, size_average=None,"
        " reduce=None, reduction='mean', pos_weight=None) -> Tensor",
        "Binary cross entropy of ``sigmoid(input)`` against ``target``, computed from the logits"
        " in one numerically stable expression. ``pos_weight`` weighs the positive term (per"
        " class, broadcast along the last dimension) to balance rare positives.",
        "    input (Tensor): the logits.\n    target (Tensor): the targets in [0, 1].\n"
        "    weight (Tensor, optional): a weight broadcast to ``input``.\n"
        + _REDUCTION
        + "\n    pos_weight (Tensor, optional): the weight of positive examples.",
        ">>> engine.nn.functional.binary_cross_entropy_with_logits(engine.tensor([0.0]),"
        " engine.tensor([1.0]))\ntensor(0.6931)",
    ),
    "nll_loss": entry(
        "nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,"
        " reduction='mean') -> Tensor",
        "Negative log-likelihood loss: ``-input[n, target[n]]`` for log-probabilities ``input``"
        " of shape (N, C) or (N, C, d1, ...) and class indices ``target`` of shape (N) or"
        " (N, d1, ...). ``'mean'`` divides by the total weight of the targets that count.",
        "    input (Tensor): log-probabilities, classes along dimension 1.\n"
        "    target (LongTensor): class indices in [0, C).\n"
        "    weight (Tensor, optional): a weight per class, shape (C).\n"
        "    ignore_index (int): a target value that contributes nothing. Default: -100.\n"
        + _REDUCTION,
        ">>> logp = engine.tensor([[-0.5, -1.0], [-2.0, -0.1]])\n"
        ">>> engine.nn.functional.nll_loss(logp, engine.tensor([0, 1]))\ntensor(0.3000)",
    ),
    "cross_entropy": entry(
        "cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,"
        " reduce=None, reduction='mean', label_smoothing=0.0) -> Tensor",
        "Cross entropy between unnormalised scores (logits) ``input`` and ``target``:"
        " ``nll_loss(log_softmax(input, 1), target)`` for class indices, or"
        " :math:`-\\sum_c y_c \\log \\mathrm{softmax}(x)_c` when ``target`` holds class"
        " probabilities of ``input``'s shape. ``label_smoothing`` mixes the targets with the"
        " uniform distribution.",
        "    input (Tensor): logits of shape (C), (N, C) or (N, C, d1, ...).\n"
        "    target (Tensor): class indices (int64) or class probabilities.\n"
        "    weight (Tensor, optional): a weight per class, shape (C).\n"
        "    ignore_index (int): a class index that contributes nothing. Default: -100.\n"
        + _REDUCTION
        + "\n    label_smoothing (float): the smoothing amount in [0, 1]. Default: 0.",
        ">>> logits = engine.tensor([[2.0, 0.0], [0.0, 2.0]])\n"
        ">>> engine.nn.functional.cross_entropy(logits, engine.tensor([0, 1]))\ntensor(0.1269)",
    ),
}


def targets(engine):
    import engine.nn.functional

    return [(engine.nn.functional, DOCS)]
