"""``engine.backends.cudnn``: cuDNN's flags. Kept so that scripts can set them; they change nothing
on the CPU."""

enabled = True
benchmark = False
deterministic = False
allow_tf32 = True


def is_available():
    """False: no cuDNN."""
    return False


def version():
    """None: no cuDNN."""
    return None
