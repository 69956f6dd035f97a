"""One backward pass runs the hooks a list held when the pass reached it: a hook removed by an
earlier hook of the same pass still runs in that pass (and not in the next), as in PyTorch. Also:
a post-accumulate-grad hook that returns a tensor is refused, and a node takes any object as its
hook (PyTorch checks nothing until backward calls it). Messages are PyTorch 2.13's."""

import engine as torch
import pytest


def _pass_and_count(register):
    """Registers a remover then a counter with `register`, runs two passes, returns the counts."""
    a = torch.ones(3, requires_grad=True)
    b = a * 2
    counts = []
    handles = {}

    def remover(*args):
        handles["counter"].remove()

    def counter(*args):
        counts.append(1)

    register(b, remover)
    handles["counter"] = register(b, counter)
    b.sum().backward(retain_graph=True)
    first = len(counts)
    b.sum().backward()
    return first, len(counts) - first


def test_node_prehook_removed_during_the_pass_still_runs_in_it():
    assert _pass_and_count(lambda t, f: t.grad_fn.register_prehook(f)) == (1, 0)


def test_node_posthook_removed_during_the_pass_still_runs_in_it():
    assert _pass_and_count(lambda t, f: t.grad_fn.register_hook(f)) == (1, 0)


def test_tensor_hook_removed_during_the_pass_still_runs_in_it():
    assert _pass_and_count(lambda t, f: t.register_hook(f)) == (1, 0)


def test_leaf_hooks_removed_during_the_pass_still_run_in_it():
    a = torch.ones(2, requires_grad=True)
    counts = []
    handles = {}
    a.register_hook(lambda g: handles["h"].remove())
    handles["h"] = a.register_hook(lambda g: counts.append("hook"))
    a.register_post_accumulate_grad_hook(lambda t: handles["p"].remove())
    handles["p"] = a.register_post_accumulate_grad_hook(lambda t: counts.append("post"))
    (a * 2).sum().backward()
    assert counts == ["hook", "post"]
    (a * 2).sum().backward()
    assert counts == ["hook", "post"]


def test_post_accumulate_grad_hook_returning_a_tensor_is_refused():
    a = torch.ones(2, requires_grad=True)
    a.register_post_accumulate_grad_hook(lambda t: t.grad)
    with pytest.raises(
        RuntimeError, match=r"^Tensor post accumulate grad hooks should return None\.$"
    ):
        a.sum().backward()
    assert a.grad.tolist() == [1.0, 1.0]  # accumulated before the hook ran


def test_post_accumulate_grad_hook_returning_another_type_is_a_type_error():
    a = torch.ones(2, requires_grad=True)
    a.register_post_accumulate_grad_hook(lambda t: 3)
    with pytest.raises(TypeError, match="expected Variable, but hook returned 'int'"):
        a.sum().backward()


class _NotCallable:
    pass


def test_a_node_takes_any_object_as_hook_and_releases_it_with_the_graph():
    import weakref

    a = torch.ones(2, requires_grad=True)
    b = a.clone()
    hook = _NotCallable()
    ref = weakref.ref(hook)
    b.grad_fn.register_hook(hook)
    b.grad_fn.register_prehook(hook)
    del hook
    assert ref() is not None
    with pytest.raises(TypeError, match="not callable"):
        b.sum().backward()
    del b
    assert ref() is None
