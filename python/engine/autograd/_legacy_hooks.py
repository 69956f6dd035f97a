"""``Tensor._backward_hooks``: PyTorch's legacy per-tensor hook dict.

Old code assigns a dict to it and puts hooks in (``t._backward_hooks = OrderedDict();
t._backward_hooks[key] = fn``). As in PyTorch, the dict assigned stays readable; on a leaf that
requires grad its hooks run when the leaf's gradient is computed, in the dict's order at that
moment, each seeing (and able to replace) the gradient; on other tensors they never run.
Assigning None (or another dict) unhooks the previous one. Hooks registered with
``Tensor.register_hook`` are kept natively and do not appear in the dict.
"""

import weakref

from engine import _C

# id(tensor) -> (weak reference to it, the dict, the native hook handle or None). The entry goes
# with the tensor; a tensor is never kept alive by its dict.
_dicts = {}


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


def _set(self, hooks):
    old = _dicts.pop(id(self), None)
    if old is not None and old[2] is not None:
        old[2].remove()
    if hooks is None:
        return
    handle = None
    if self.requires_grad and self.is_leaf and hasattr(hooks, "values"):
        handle = _C._tensor_register_hook(self, _run_dict(hooks))
    key = id(self)
    _dicts[key] = (weakref.ref(self, lambda _ref: _dicts.pop(key, None)), hooks, handle)


def _delete(self):
    raise RuntimeError("Deletion of _backwards_hooks not allowed!")


_C.Tensor._backward_hooks = property(_get, _set, _delete)
