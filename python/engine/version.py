"""engine.version: the package version and the builds it does not have (CUDA, ROCm)."""

from engine import __version__

__all__ = ["__version__", "cuda", "debug", "git_version", "hip"]

cuda = None
hip = None
debug = False
git_version = "unknown"
