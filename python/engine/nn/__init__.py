"""engine.nn: modules, parameters, initialisation and the functional interface, as torch.nn.

Everything here loads on first use (engine/_lazy.py): ``import engine`` does not import the
layers, and ``engine.nn.Linear`` loads only the files that define it. Every name is reachable as
from an eager package: ``engine.nn.functional``, ``import engine.nn.functional as F``,
``from engine.nn import *``, ``dir(engine.nn)``."""

from engine import _docs, _lazy
from engine.nn.modules import _FAMILIES

# The layer classes by file (engine/nn/modules/), and the parameter types.
_ATTRIBUTES = {
    name: (f"engine.nn.modules.{family}", name)
    for family, names in _FAMILIES.items()
    for name in names
}
_ATTRIBUTES.update({name: ("engine.nn.parameter", name) for name in ("Buffer", "Parameter")})

_SUBMODULES = (
    "functional", "grad", "init", "modules", "parallel", "parameter", "utils",
    # private files, reachable as attributes as once they were imported eagerly
    "_activations", "_activations_extra", "_attention", "_conv", "_ctc", "_dropout",
    "_embedding_bag", "_layers_extra", "_layers_functional", "_losses", "_losses_extra",
    "_pooling", "_sampling", "_torch_functions",
)  # fmt: skip

__all__ = ["Buffer", "Module", "Parameter", "functional", "grad", "init", "utils"]
__all__ += sorted(name for name in _ATTRIBUTES if name[:1].isupper() and name not in __all__)
# Reachable as engine.nn.DataParallel (as torch.nn.DataParallel) though it is no layer family's.
_ATTRIBUTES["DataParallel"] = ("engine.nn.parallel.data_parallel", "DataParallel")

# engine/_docs documents some of engine.nn.functional: its texts attach once it has loaded.
__getattr__, __dir__ = _lazy.attach(__name__, _SUBMODULES, _ATTRIBUTES, _docs.apply_pending)
