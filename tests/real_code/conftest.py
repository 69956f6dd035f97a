"""The ``lib`` fixture of these tests: each check runs on engine, and also on PyTorch where it is
installed, so the recorded expectations are verified live against the library they came from."""

from __future__ import annotations

import engine
import pytest

LIBS = [engine]
try:  # live comparison where PyTorch is installed
    import torch

    LIBS.append(torch)
except ImportError:
    pass


@pytest.fixture(params=LIBS, ids=lambda m: m.__name__)
def lib(request):
    """engine, then torch when it imports."""
    return request.param
