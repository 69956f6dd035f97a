"""The nn layers, one file per family (as PyTorch's torch.nn.modules)."""

from engine.nn.modules import (  # noqa: E402
    activation,
    attention,
    batchnorm,
    container,
    conv,
    distance,
    dropout,
    flatten,
    fold,
    instancenorm,
    lazy,
    linear,
    loss,
    module,
    normalization,
    padding,
    pixelshuffle,
    pooling,
    rnn,
    sparse,
    transformer,
    upsampling,
)  # fmt: skip
from engine.nn.modules.activation import *  # noqa: F403
from engine.nn.modules.attention import *  # noqa: F403
from engine.nn.modules.batchnorm import *  # noqa: F403
from engine.nn.modules.container import *  # noqa: F403
from engine.nn.modules.conv import *  # noqa: F403
from engine.nn.modules.distance import *  # noqa: F403
from engine.nn.modules.dropout import *  # noqa: F403
from engine.nn.modules.flatten import *  # noqa: F403
from engine.nn.modules.fold import *  # noqa: F403
from engine.nn.modules.instancenorm import *  # noqa: F403
from engine.nn.modules.lazy import *  # noqa: F403
from engine.nn.modules.linear import *  # noqa: F403
from engine.nn.modules.loss import *  # noqa: F403
from engine.nn.modules.module import *  # noqa: F403
from engine.nn.modules.normalization import *  # noqa: F403
from engine.nn.modules.padding import *  # noqa: F403
from engine.nn.modules.pixelshuffle import *  # noqa: F403
from engine.nn.modules.pooling import *  # noqa: F403
from engine.nn.modules.rnn import *  # noqa: F403
from engine.nn.modules.sparse import *  # noqa: F403
from engine.nn.modules.transformer import *  # noqa: F403
from engine.nn.modules.upsampling import *  # noqa: F403

# Only the layer classes are exported: the file names stay inside engine.nn.modules.
__all__ = sorted(
    {
        name
        for family in (
            activation, attention, batchnorm, container, conv, distance, dropout, flatten, fold, instancenorm,
            lazy, linear, loss, module, normalization, padding, pixelshuffle, pooling, rnn, sparse, transformer,
            upsampling,
        )
        for name in family.__all__
    }
)  # fmt: skip
