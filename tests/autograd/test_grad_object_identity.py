"""Tensor.grad hands out one Python object per gradient tensor while it is the gradient, as
PyTorch does: ``t.grad is t.grad`` holds even when nothing else refers to the gradient, weak
references to it stay alive, and the object goes away with the gradient (no cycle, no leak)."""

import gc
import threading
import warnings
import weakref

import engine as torch


def leaf_with_grad():
    t = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (t * t).sum().backward()
    return t


def test_weak_reference_to_grad_survives():
    t = leaf_with_grad()
    ref = weakref.ref(t.grad)
    assert ref() is not None and ref() is t.grad
    assert ref().tolist() == [2.0, 4.0, 6.0]


def test_in_place_accumulation_keeps_the_object():
    t = leaf_with_grad()
    first = id(t.grad)
    ref = weakref.ref(t.grad)
    (t * 2).sum().backward()
    assert ref() is t.grad and id(t.grad) == first
    assert t.grad.tolist() == [4.0, 6.0, 8.0]


def test_assigned_grad_is_the_object_read_back():
    t = torch.zeros(2, requires_grad=True)
    g = torch.ones(2)
    t.grad = g
    assert t.grad is g


def test_clearing_grad_releases_its_object():
    t = leaf_with_grad()
    ref = weakref.ref(t.grad)
    t.grad = None
    gc.collect()
    assert ref() is None and t.grad is None


def test_grad_object_dies_with_its_owner_without_the_collector():
    gc.disable()
    try:
        t = leaf_with_grad()
        ref = weakref.ref(t.grad)
        del t
        assert ref() is None
    finally:
        gc.enable()


def test_replaced_gradient_does_not_keep_the_old_object():
    t = torch.tensor([1.0, 2.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # backward(create_graph=True)'s cycle warning
        (t * t).sum().backward(create_graph=True)
        ref = weakref.ref(t.grad)
        (t * t).sum().backward(create_graph=True)  # under create_graph .grad becomes a new tensor
    gc.collect()
    assert ref() is None
    assert t.grad.tolist() == [4.0, 8.0]
    t.grad = None


def test_threads_reading_grad_get_the_same_object():
    t = leaf_with_grad()
    barrier = threading.Barrier(4)
    seen = []

    def read():
        barrier.wait()
        seen.append(weakref.ref(t.grad))

    threads = [threading.Thread(target=read) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert all(r() is t.grad for r in seen)
