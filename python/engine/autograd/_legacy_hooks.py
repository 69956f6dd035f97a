"""``Tensor._backward_hooks``: PyTorch's legacy per-tensor hook dict.

Old code assigns a dict to it and puts hooks in (``t._backward_hooks = OrderedDict();
t._backward_hooks[key] = fn``). As in PyTorch, the dict assigned stays readable; on a leaf that
requires grad its hooks run when the leaf's gradient is computed, in the dict's order at that
moment, each seeing (and able to replace) the gradient; on other tensors they never run.
Assigning None (or another dict) unhooks the previous one and every hook in it.

``Tensor.register_hook`` keeps its hooks natively (they run with the native checks and order) and
lists each in the dict under its handle's id, as PyTorch's does: before the first one the
attribute is None, after it an ``OrderedDict`` that ``handle.remove()`` leaves empty.
"""

import itertools
import weakref
from collections import OrderedDict

from engine import _C

# id(tensor) -> (weak reference to it, the dict, the native hook handle or None, the handles of
# the hooks register_hook listed in the dict). The entry goes with the tensor; a tensor is never
# kept alive by its dict.
_dicts = {}
_handle_ids = itertools.count()


def _get(self):
    entry = _dicts.get(id(self))
    return None if entry is None or entry[0]() is not self else entry[1]


def _run_dict(hooks):
    def run(grad):
        for hook in list(hooks.values()):
            result = hook(grad)
            if result is not None:
                if not isinstance(result, _C.Tensor):
                    raise TypeError(
                        f"expected Variable, but hook returned '{type(result).__name__}'"
                    )
                grad = result
        return grad

    return run


def _store(self, hooks, handle, listed):
    key = id(self)
    _dicts[key] = (weakref.ref(self, lambda _ref: _dicts.pop(key, None)), hooks, handle, listed)


def _set(self, hooks):
    old = _dicts.pop(id(self), None)
    if old is not None:
        for h in [old[2], *old[3]]:
            if h is not None:
                h.remove()
    if hooks is None:
        return
    handle = None
    if self.requires_grad and self.is_leaf and hasattr(hooks, "values"):
        handle = _C._tensor_register_hook(self, _run_dict(hooks))
    _store(self, hooks, handle, [])


def register_listed(self, hook):
    """Tensor.register_hook: the hook registered natively and listed in ``_backward_hooks``; into
    a dict the user assigned to a leaf (which runs its entries itself) it only goes as an entry."""
    entry = _dicts.get(id(self))
    if entry is not None and entry[0]() is self and entry[2] is not None:
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        from engine.utils.hooks import RemovableHandle

        handle = RemovableHandle(lambda: None)
    else:
        handle = _C._tensor_register_hook(self, hook)  # checks the tensor and the hook first
        if entry is None or entry[0]() is not self:
            _store(self, OrderedDict(), None, [])
            entry = _dicts[id(self)]
    hooks, listed = entry[1], entry[3]
    key = handle.id = next(_handle_ids)
    native_remove = handle._remove

    def remove():
        native_remove()
        if hasattr(hooks, "pop"):
            hooks.pop(key, None)
        if handle in listed:
            listed.remove(handle)

    handle._remove = remove
    if hasattr(hooks, "__setitem__"):
        hooks[key] = hook
    listed.append(handle)
    return handle


def _delete(self):
    raise RuntimeError("Deletion of _backwards_hooks not allowed!")


_C.Tensor._backward_hooks = property(_get, _set, _delete)
