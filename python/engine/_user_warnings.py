"""Warnings that point at the user's line.

A warning about a call is most useful at the line that made it. ``warnings.warn``'s fixed
``stacklevel`` counts frames, so it points into engine itself whenever the warning is raised a
varying number of calls deep (an nn.Module's forward, a functional calling another, a wrapper).
``warn`` here attributes the warning to the first frame outside the engine package instead."""

import os
import sys
import warnings

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn(message, category=UserWarning):
    """``warnings.warn`` at the innermost caller outside engine."""
    frame = sys._getframe(1)
    level = 2  # stacklevel 1 is this function, 2 its caller
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)
