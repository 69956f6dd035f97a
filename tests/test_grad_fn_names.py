"""grad_fn names: ops engine composes from other ops show the node name PyTorch's operator has
(a loss prints ``grad_fn=<NllLossBackward0>``, not its last primitive's name). The table was
recorded from PyTorch 2.13 on the same expressions."""

import engine as torch
import engine.nn.functional as F
import pytest

# (expression, PyTorch's type(result.grad_fn).__name__); None: no graph (integer results).
CASES = [
    ("F.mse_loss(x, t, reduction='none')", "MseLossBackward0"),
    ("F.mse_loss(x, t, reduction='sum')", "MseLossBackward0"),
    ("F.nll_loss(x, y, reduction='none')", "NllLossBackward0"),
    ("F.cross_entropy(img, torch.zeros(2, 8, 8, dtype=torch.long))", "NllLoss2DBackward0"),
    ("F.nll_loss(img, torch.zeros(2, 8, 8, dtype=torch.long))", "NllLoss2DBackward0"),
    ("F.cross_entropy(s1, torch.zeros(2, 8, dtype=torch.long))", "NllLoss2DBackward0"),
    ("F.binary_cross_entropy(p, t, reduction='none')", "BinaryCrossEntropyBackward0"),
    ("F.binary_cross_entropy(p, t, weight=t)", "BinaryCrossEntropyBackward0"),
    (
        "F.binary_cross_entropy_with_logits(x, t, pos_weight=torch.ones(3))",
        "BinaryCrossEntropyWithLogitsBackward0",
    ),
    ("F.smooth_l1_loss(x, t, beta=0)", "MeanBackward0"),
    ("F.l1_loss(x, t, reduction='none')", "AbsBackward0"),
    ("F.huber_loss(x, t, reduction='none')", "HuberLossBackward0"),
    ("F.soft_margin_loss(x, t)", "SoftMarginLossBackward0"),
    ("F.multi_margin_loss(x, y)", "MultiMarginLossBackward0"),
    (
        "F.multilabel_margin_loss(x, torch.zeros(4, 3, dtype=torch.long))",
        "MultilabelMarginLossBackward0",
    ),
    ("F.multilabel_soft_margin_loss(x, t)", "MeanBackward0"),
    ("F.kl_div(x, t)", "MeanBackward0"),
    ("F.gelu(x)", "GeluBackward0"),
    ("F.gelu(x, approximate='tanh')", "GeluBackward0"),
    ("F.silu(x)", "SiluBackward0"),
    ("F.relu(x)", "ReluBackward0"),
    ("F.leaky_relu(x, 0.2)", "LeakyReluBackward0"),
    ("F.hardtanh(x)", "HardtanhBackward0"),
    ("F.relu6(x)", "HardtanhBackward0"),
    ("F.elu(x)", "EluBackward0"),
    ("F.selu(x)", "EluBackward0"),
    ("F.celu(x)", "CeluBackward0"),
    ("F.softplus(x)", "SoftplusBackward0"),
    ("F.softplus(x, beta=2)", "SoftplusBackward0"),
    ("F.logsigmoid(x)", "LogSigmoidBackward0"),
    ("F.softsign(x)", "DivBackward0"),
    ("F.mish(x)", "MishBackward0"),
    ("F.hardsigmoid(x)", "HardsigmoidBackward0"),
    ("F.hardswish(x)", "HardswishBackward0"),
    ("F.glu(torch.randn(4, 4, requires_grad=True))", "GluBackward0"),
    ("F.prelu(x, torch.tensor([0.25], requires_grad=True))", "PreluKernelBackward0"),
    ("F.softmin(x, 1)", "SoftmaxBackward0"),
    ("F.normalize(x)", "DivBackward0"),
    ("F.cosine_similarity(x, p)", "SumBackward1"),
    ("F.threshold(x, 0.1, 0.)", "ThresholdBackward0"),
    ("F.hardshrink(x)", "HardshrinkBackward0"),
    ("F.softshrink(x)", "SoftshrinkBackward0"),
    ("F.tanhshrink(x)", "SubBackward0"),
    ("F.rrelu(x)", "RreluWithNoiseBackward0"),
    ("F.rrelu(x, training=True)", "RreluWithNoiseBackward0"),
    ("F.gumbel_softmax(x)", "SoftmaxBackward0"),
    ("F.layer_norm(x, (3,))", "NativeLayerNormBackward0"),
    ("F.layer_norm(x, (3,), torch.ones(3), torch.zeros(3))", "NativeLayerNormBackward0"),
    ("F.rms_norm(x, (3,))", "MulBackward0"),
    ("F.group_norm(img, 3)", "NativeGroupNormBackward0"),
    ("F.batch_norm(img, torch.zeros(3), torch.ones(3))", "NativeBatchNormBackward0"),
    ("F.batch_norm(img, torch.zeros(3), torch.ones(3), training=True)", "NativeBatchNormBackward0"),
    ("F.instance_norm(img)", "ViewBackward0"),
    ("F.embedding(y, x)", "EmbeddingBackward0"),
    ("F.pad(x, (1, 1))", "ConstantPadNdBackward0"),
    ("F.pad(s1, (1, 1), mode='reflect')", "ReflectionPad1DBackward0"),
    ("F.pad(v3, (1, 1, 1, 1, 1, 1), mode='replicate')", "ReplicationPad3DBackward0"),
    (
        "F.scaled_dot_product_attention(img, img, img)",
        "ScaledDotProductFlashAttentionForCpuBackward0",
    ),
    (
        "F.scaled_dot_product_attention(img, img, img, is_causal=True)",
        "ScaledDotProductFlashAttentionForCpuBackward0",
    ),
    (
        "F.scaled_dot_product_attention(img, img, img, attn_mask=torch.ones(8, 8, dtype=torch.bool))",
        "ScaledDotProductFlashAttentionForCpuBackward0",
    ),
    ("F.pixel_shuffle(torch.randn(1, 4, 2, 2, requires_grad=True), 2)", "PixelShuffleBackward0"),
    ("F.pixel_unshuffle(img, 2)", "PixelUnshuffleBackward0"),
    (
        "F.channel_shuffle(torch.randn(1, 4, 2, 2, requires_grad=True), 2)",
        "ChannelShuffleBackward0",
    ),
    ("F.interpolate(img, scale_factor=2)", "UpsampleNearest2DBackward0"),
    ("F.interpolate(img, scale_factor=2, mode='bilinear')", "UpsampleBilinear2DBackward0"),
    ("F.interpolate(img, scale_factor=2, mode='bicubic')", "UpsampleBicubic2DBackward0"),
    ("F.interpolate(s1, scale_factor=2)", "UpsampleNearest1DBackward0"),
    ("F.interpolate(s1, scale_factor=2, mode='linear')", "UpsampleLinear1DBackward0"),
    ("F.interpolate(v3, scale_factor=2)", "UpsampleNearest3DBackward0"),
    ("F.interpolate(v3, scale_factor=2, mode='trilinear')", "UpsampleTrilinear3DBackward0"),
    ("F.interpolate(img, scale_factor=2, mode='nearest-exact')", "UpsampleNearestExact2DBackward0"),
    ("F.interpolate(img, scale_factor=2, mode='area')", "AdaptiveAvgPool2DBackward0"),
    ("F.grid_sample(img, torch.zeros(2, 3, 3, 2))", "GridSampler2DBackward0"),
    (
        "F.affine_grid(torch.randn(2, 2, 3, requires_grad=True), (2, 3, 4, 4))",
        "AffineGridGeneratorBackward0",
    ),
    ("F.embedding_bag(torch.tensor([0, 1, 2]), x, torch.tensor([0, 2]))", "EmbeddingBagBackward0"),
    (
        "F.embedding_bag(torch.tensor([0, 1, 2]), x, torch.tensor([0, 2]), mode='sum')",
        "EmbeddingBagBackward0",
    ),
    (
        "F.embedding_bag(torch.tensor([0, 1, 2]), x, torch.tensor([0, 2]), mode='max')",
        "EmbeddingBagBackward0",
    ),
    ("F.margin_ranking_loss(x[:, 0], p[:, 0], t[:, 0].sign())", "MeanBackward0"),
    ("F.hinge_embedding_loss(x, t.sign())", "MeanBackward0"),
    ("F.cosine_embedding_loss(x, p, torch.ones(4))", "MeanBackward0"),
    ("F.triplet_margin_loss(x, p, t)", "MeanBackward0"),
    ("F.poisson_nll_loss(x, t)", "MeanBackward0"),
    ("F.gaussian_nll_loss(x, t, torch.ones(4, 3))", "MeanBackward0"),
    ("F.linear(x, torch.randn(2, 3, requires_grad=True))", "MmBackward0"),
    ("F.bilinear(x, p, torch.randn(2, 3, 3))", "ViewBackward0"),
    ("F.conv1d(s1, torch.randn(4, 3, 3))", "ConvolutionBackward0"),
    ("F.conv_transpose2d(img, torch.randn(3, 2, 3, 3))", "ConvolutionBackward0"),
    ("F.unfold(img, 2)", "Im2ColBackward0"),
    ("F.fold(torch.randn(1, 12, 9, requires_grad=True), (4, 4), 2)", "Col2ImBackward0"),
    ("F.dropout(x, 0.5)", "MulBackward0"),
    ("F.dropout2d(img, 0.5)", "MulBackward0"),
    ("F.alpha_dropout(x, 0.5, True)", "AddBackward0"),
    ("F.local_response_norm(img, 2)", "DivBackward0"),
    (
        "F.ctc_loss(torch.randn(5, 2, 4).log_softmax(2).requires_grad_(), torch.tensor([[1, 2], [1, 1]]), torch.tensor([5, 5]), torch.tensor([2, 2]))",  # noqa: E501
        "MeanBackward0",
    ),
    ("x[0].diag()", "DiagEmbedBackward0"),
    ("x.masked_fill(x>0, torch.tensor(1.))", "MaskedFillBackward1"),
    ("x.median()", "MedianBackward0"),
    ("x.median(0)[0]", "MedianBackward1"),
    ("x.kthvalue(2)[0]", "KthvalueBackward0"),
    ("x.addcdiv(x,x)", "AddcdivBackward0"),
    ("torch.rsub(x, x)", "RsubBackward0"),
    ("torch.rsub(x, 1)", "RsubBackward1"),
    ("x.norm(dim=0)", "LinalgVectorNormBackward0"),
    ("x.norm(p='fro')", "LinalgVectorNormBackward0"),
    ("torch.linalg.norm(x)", "LinalgVectorNormBackward0"),
    ("torch.linalg.vector_norm(x)", "LinalgVectorNormBackward0"),
    ("x.cross(p, dim=1)", "LinalgCrossBackward0"),
    ("x.split(1)[1]", "SplitBackward0"),
    ("x.split([1, 3])[1]", "SplitWithSizesBackward0"),
    ("x.unbind(1)[2]", "UnbindBackward0"),
    ("x.clamp_min(torch.tensor(0.))", "ClampMinBackward1"),
    ("x.clamp_max(torch.tensor(0.))", "ClampMaxBackward1"),
    ("x.lerp(p, torch.tensor(0.5))", "LerpBackward1"),
    ("x.topk(2,sorted=False)[0]", "TopkBackward0"),
    ("x.sort(stable=True)[0]", "SortBackward1"),
    ("x.repeat(1,2)", "RepeatBackward0"),
    ("x.roll(1,0)", "RollBackward0"),
    ("x.flip(0,1)", "FlipBackward0"),
    ("x.square()", "PowBackward0"),
    ("x.msort()", "SortBackward0"),
    ("x.max(0)[0]", "MaxBackward0"),
    ("x.nanmedian()", "NanmedianBackward0"),
    ("x.mode(0)[0]", "ModeBackward0"),
    ("x.cummax(0)[0]", "CummaxBackward0"),
    ("x.logcumsumexp(0)", "LogcumsumexpBackward0"),
    ("x.std(0)", "StdBackward0"),
    ("x[0]@x[1]", "DotBackward0"),
    ("x@x[0]", "MvBackward0"),
    ("x@x.t()", "MmBackward0"),
    ("x[0]@x.t()", "SqueezeBackward4"),
    ("x.mm(x.t())", "MmBackward0"),
    ("x.T", "PermuteBackward0"),
    ("x.mT", "TransposeBackward0"),
    ("x.trace()", "TraceBackward0"),
    ("x.tril()", "TrilBackward0"),
    ("x.triu(1)", "TriuBackward0"),
    ("x.fliplr()", "FlipBackward0"),
    ("x.rot90()", "Rot90Backward0"),
    ("x.sum_to_size(1,3)", "SumBackward1"),
    ("x.type_as(t)", "None"),
    ("x.clamp(0, 1)", "ClampBackward1"),
    ("x.clamp(min=0)", "ClampBackward1"),
    ("1 - x", "RsubBackward1"),
    ("x.clamp_min(0)", "ClampMinBackward0"),
    ("x.softmax(0)", "SoftmaxBackward0"),
    ("x.log_softmax(1)", "LogSoftmaxBackward0"),
    ("x.lerp(p, 0.5)", "LerpBackward0"),
    ("x[[0, 1]]", "IndexBackward0"),
    ("x[x > 0]", "IndexBackward0"),
    ("x[:, [0, 2]]", "IndexBackward0"),
    ("F.max_pool2d(img, 2)", "MaxPool2DWithIndicesBackward0"),
    ("F.max_pool3d(v3, 2)", "MaxPool3DWithIndicesBackward0"),
    ("F.max_pool2d(img, 2, return_indices=True)[0]", "MaxPool2DWithIndicesBackward0"),
    ("F.adaptive_max_pool2d(img, 2)", "AdaptiveMaxPool2DBackward0"),
    ("F.avg_pool2d(img, 2)", "AvgPool2DBackward0"),
    ("F.avg_pool3d(v3, 2)", "AvgPool3DBackward0"),
    ("F.adaptive_avg_pool2d(img, 2)", "AdaptiveAvgPool2DBackward0"),
    ("F.adaptive_avg_pool2d(img, 1)", "MeanBackward1"),
    ("F.adaptive_avg_pool3d(v3, 2)", "AdaptiveAvgPool3DBackward0"),
]


def _env():
    torch.manual_seed(0)
    env = {"torch": torch, "F": F}
    env["x"] = torch.randn(4, 3, requires_grad=True)
    env["p"] = torch.rand(4, 3, requires_grad=True)
    env["t"] = torch.rand(4, 3)
    env["y"] = torch.tensor([0, 2, 1, 1])
    env["img"] = torch.randn(2, 3, 8, 8, requires_grad=True)
    env["s1"] = torch.randn(2, 3, 8, requires_grad=True)
    env["v3"] = torch.randn(1, 2, 4, 4, 4, requires_grad=True)
    return env


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("expr, name", CASES)
def test_grad_fn_has_pytorchs_name(expr, name):
    result = eval(expr, _env())
    got = None if result.grad_fn is None else type(result.grad_fn).__name__
    assert got == (None if name == "None" else name)
    if got is not None:
        assert result.grad_fn.name() == got
        assert f"grad_fn=<{got}>" in repr(result)


def test_named_node_still_computes_the_composition_gradient():
    x = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
    y = torch.tensor([0, 2, 1, 1, 0])
    assert torch.autograd.gradcheck(lambda a: F.cross_entropy(a, y), (x,))
    assert torch.autograd.gradgradcheck(lambda a: F.layer_norm(a, (3,)), (x,))
    assert torch.autograd.gradcheck(lambda a: (1 - a).clamp(0.2, 0.9).std(), (x,))


def test_an_op_returning_its_input_keeps_the_inputs_name():
    x = torch.randn(3, requires_grad=True)
    y = x * 2
    assert F.dropout(y, 0.0) is y and type(y.grad_fn).__name__ == "MulBackward0"
