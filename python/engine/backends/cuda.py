"""``engine.backends.cuda``: CUDA's flags. Kept so that scripts can set them; they change nothing on
the CPU."""

import types

matmul = types.SimpleNamespace(allow_tf32=False, allow_fp16_reduced_precision_reduction=True)


def is_built():
    """False: engine is not built with CUDA."""
    return False
