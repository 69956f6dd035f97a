"""engine.optim: optimizers with PyTorch's API and numerics (``torch.optim``).

The bookkeeping (parameter groups, state, state dicts, hooks) is Python; each algorithm's update
runs natively, one fused call per parameter group and step.
"""

from engine.optim import lr_scheduler
from engine.optim.adadelta import Adadelta
from engine.optim.adagrad import Adagrad
from engine.optim.adam import Adam
from engine.optim.adamax import Adamax
from engine.optim.adamw import AdamW
from engine.optim.asgd import ASGD
from engine.optim.lbfgs import LBFGS
from engine.optim.nadam import NAdam
from engine.optim.optimizer import Optimizer
from engine.optim.radam import RAdam
from engine.optim.rmsprop import RMSprop
from engine.optim.rprop import Rprop
from engine.optim.sgd import SGD

__all__ = [
    "ASGD",
    "LBFGS",
    "SGD",
    "Adadelta",
    "Adagrad",
    "Adam",
    "AdamW",
    "Adamax",
    "NAdam",
    "Optimizer",
    "RAdam",
    "RMSprop",
    "Rprop",
    "lr_scheduler",
    "swa_utils",
]


def __getattr__(name):
    # Weight averaging loads on first use (engine.optim.swa_utils.AveragedModel).
    if name == "swa_utils":
        import importlib

        return importlib.import_module("engine.optim.swa_utils")
    raise AttributeError(f"module 'engine.optim' has no attribute '{name}'")
