"""The nn layers, one file per family (as PyTorch's torch.nn.modules).

A family's file loads when one of its names is first used (engine/_lazy.py): ``import engine``
does not pay for the layers, and ``engine.nn.Linear`` loads linear.py and what it imports."""

from engine import _lazy

# The names each file exports (its __all__), so that a name finds its file without loading the
# others; tests/test_import_time.py checks the table against the files.
_FAMILIES = {
    "activation": (
        "CELU ELU GELU GLU Hardshrink Hardsigmoid Hardswish Hardtanh LeakyReLU LogSigmoid "
        "LogSoftmax Mish PReLU ReLU ReLU6 RReLU SELU SiLU Sigmoid Softmax Softmax2d Softmin "
        "Softplus Softshrink Softsign Tanh Tanhshrink Threshold"
    ).split(),
    "attention": "MultiheadAttention NonDynamicallyQuantizableLinear".split(),
    "batchnorm": "BatchNorm1d BatchNorm2d BatchNorm3d".split(),
    "container": "ModuleDict ModuleList ParameterDict ParameterList Sequential".split(),
    "conv": "Conv1d Conv2d Conv3d ConvTranspose1d ConvTranspose2d ConvTranspose3d".split(),
    "distance": "CosineSimilarity PairwiseDistance".split(),
    "dropout": "AlphaDropout Dropout Dropout1d Dropout2d Dropout3d FeatureAlphaDropout".split(),
    "flatten": "Flatten Unflatten".split(),
    "fold": "Fold Unfold".split(),
    "instancenorm": "InstanceNorm1d InstanceNorm2d InstanceNorm3d".split(),
    "lazy": (
        "LazyBatchNorm1d LazyBatchNorm2d LazyBatchNorm3d LazyConv1d LazyConv2d LazyConv3d "
        "LazyConvTranspose1d LazyConvTranspose2d LazyConvTranspose3d LazyInstanceNorm1d "
        "LazyInstanceNorm2d LazyInstanceNorm3d LazyLinear LazyModuleMixin"
    ).split(),
    "linear": "Bilinear Identity Linear".split(),
    "loss": (
        "BCELoss BCEWithLogitsLoss CTCLoss CosineEmbeddingLoss CrossEntropyLoss GaussianNLLLoss "
        "HingeEmbeddingLoss HuberLoss KLDivLoss L1Loss MSELoss MarginRankingLoss "
        "MultiLabelMarginLoss MultiLabelSoftMarginLoss MultiMarginLoss NLLLoss PoissonNLLLoss "
        "SmoothL1Loss SoftMarginLoss TripletMarginLoss TripletMarginWithDistanceLoss"
    ).split(),
    "module": (
        "Module register_module_forward_hook register_module_forward_pre_hook "
        "register_module_full_backward_hook register_module_full_backward_pre_hook"
    ).split(),
    "normalization": "GroupNorm LayerNorm LocalResponseNorm RMSNorm".split(),
    "padding": (
        "CircularPad1d CircularPad2d CircularPad3d ConstantPad1d ConstantPad2d ConstantPad3d "
        "ReflectionPad1d ReflectionPad2d ReflectionPad3d ReplicationPad1d ReplicationPad2d "
        "ReplicationPad3d ZeroPad1d ZeroPad2d ZeroPad3d"
    ).split(),
    "pixelshuffle": "ChannelShuffle PixelShuffle PixelUnshuffle".split(),
    "pooling": (
        "AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d AdaptiveMaxPool1d "
        "AdaptiveMaxPool2d AdaptiveMaxPool3d AvgPool1d AvgPool2d AvgPool3d LPPool1d LPPool2d "
        "LPPool3d MaxPool1d MaxPool2d MaxPool3d MaxUnpool1d MaxUnpool2d MaxUnpool3d"
    ).split(),
    "rnn": "GRU GRUCell LSTM LSTMCell RNN RNNBase RNNCell RNNCellBase".split(),
    "sparse": "Embedding EmbeddingBag".split(),
    "transformer": (
        "Transformer TransformerDecoder TransformerDecoderLayer TransformerEncoder "
        "TransformerEncoderLayer"
    ).split(),
    "upsampling": "Upsample UpsamplingBilinear2d UpsamplingNearest2d".split(),
}  # fmt: skip

# Only the layer classes are exported: the file names stay inside engine.nn.modules.
__all__ = sorted({name for names in _FAMILIES.values() for name in names})

__getattr__, __dir__ = _lazy.attach(
    __name__,
    submodules=(*_FAMILIES, "utils"),
    attributes={
        name: (f".{family}", name) for family, names in _FAMILIES.items() for name in names
    },
)
