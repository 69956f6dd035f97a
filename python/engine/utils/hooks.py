"""RemovableHandle: what every ``register_*hook`` returns (``torch.utils.hooks``)."""

__all__ = ["RemovableHandle"]


class RemovableHandle:
    """A handle that removes its hook on ``remove()`` (or at the end of a ``with`` block)."""

    __slots__ = ("_remove", "id")

    def __init__(self, remove, id=None):
        self._remove = remove
        self.id = id

    def remove(self):
        """Removes the hook; calling it again does nothing."""
        if self._remove is not None:
            remove, self._remove = self._remove, None
            remove()

    def __reduce__(self):
        # The hook lives in a graph node of this process: nothing to restore elsewhere.
        raise TypeError("cannot pickle 'RemovableHandle' object")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
        return False
