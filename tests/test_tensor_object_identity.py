"""One tensor, one Python object: a tensor that goes back out to Python finds the object it has.

The native layer keeps each tensor's Python object beside it (not in pybind11's registry of
instances) and forgets it when the object is deallocated; these tests pin down what users see.
"""

import gc
import threading
import weakref

import engine
from engine import nn


def test_methods_returning_self_give_the_same_object():
    t = engine.tensor([1.0, 2.0])
    assert t.add_(1) is t
    assert t.requires_grad_() is t
    assert t.detach_() is t


def test_grad_is_the_same_object_each_time():
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    assert x.grad is x.grad


def test_saved_input_comes_back_as_the_callers_object():
    class Keep(engine.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = engine.tensor([1.0], requires_grad=True)
    y = Keep.apply(x)
    assert y.grad_fn.saved_tensors[0] is x


def test_a_tensor_whose_object_died_gets_a_new_working_object():
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    acc = y.grad_fn.next_functions[0][0]
    ref = weakref.ref(x)
    del x
    gc.collect()
    assert ref() is None  # the graph keeps the tensor, not its Python object
    leaf = acc.variable
    assert leaf is acc.variable
    assert leaf.tolist() == [1.0, 2.0]


def test_an_intermediate_gets_a_fresh_object_after_its_first_one_dies():
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    ids = []
    for _ in range(3):
        y = x * 2
        ids.append(type(y))
        ref = weakref.ref(y)
        del y
        assert ref() is None
    assert ids == [engine.Tensor] * 3


def test_weakref_dies_with_the_object():
    t = engine.tensor([1.0])
    ref = weakref.ref(t)
    del t
    assert ref() is None


def test_subclass_objects_keep_their_class_and_identity():
    p = nn.Parameter(engine.zeros(2))
    with engine.no_grad():
        assert p.add_(1) is p
        assert type(p.mul_(2)) is nn.Parameter
    assert p.requires_grad_() is p

    class Sub(engine.Tensor):
        pass

    s = engine.tensor([1.0, 2.0]).as_subclass(Sub)
    assert s.add_(1) is s
    assert type(s) is Sub
    ref = weakref.ref(s)
    del s
    assert ref() is None


def test_cycle_through_a_subclass_attribute_is_collected():
    class Sub(engine.Tensor):
        pass

    t = engine.tensor([1.0]).as_subclass(Sub)
    t.me = t
    ref = weakref.ref(t)
    del t
    gc.collect()
    assert ref() is None


def test_tensors_made_on_one_thread_and_dropped_on_another():
    made = []

    def work():
        for _ in range(200):
            x = engine.tensor([1.0, 2.0, 3.0], requires_grad=True)
            made.append((x * 2).sum())

    threads = [threading.Thread(target=work) for _ in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for y in made:
        y.backward()
    assert len(made) == 400
    made.clear()
    gc.collect()
