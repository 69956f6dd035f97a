"""``engine.backends.mps``: Apple's Metal backend, never available in engine."""


def is_available():
    """False: engine computes on the CPU."""
    return False


def is_built():
    """False: engine is not built with Metal."""
    return False
