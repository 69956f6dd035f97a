"""Utilities shared by the autograd API (``torch.utils``-shaped)."""
