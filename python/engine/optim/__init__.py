"""engine.optim: optimizers with PyTorch's API and numerics (``torch.optim``).

The bookkeeping (parameter groups, state, state dicts, hooks) is Python; each algorithm's update
runs natively, one fused call per parameter group and step.

Each optimizer's file loads when its name is first used (engine/_lazy.py): ``engine.optim.Adam``
does not load the other eleven."""

from engine import _lazy

# name -> the file that defines it
_OPTIMIZERS = {
    "ASGD": "asgd",
    "Adadelta": "adadelta",
    "Adagrad": "adagrad",
    "Adam": "adam",
    "AdamW": "adamw",
    "Adamax": "adamax",
    "LBFGS": "lbfgs",
    "NAdam": "nadam",
    "Optimizer": "optimizer",
    "RAdam": "radam",
    "RMSprop": "rmsprop",
    "Rprop": "rprop",
    "SGD": "sgd",
}

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

__getattr__, __dir__ = _lazy.attach(
    __name__,
    submodules=("lr_scheduler", "swa_utils", *_OPTIMIZERS.values()),
    attributes={name: (f".{file}", name) for name, file in _OPTIMIZERS.items()},
)
