"""The cycle collector may run while a custom Function's ctx is still being laid out: the first
ctx of a new Function class fills the binding layer's type cache, which allocates, and a
collection then visits a ctx that has no value yet. It must see nothing there (it crashed the
interpreter: gradcheck defines a Function class on every call). Run in a child process, with the
collector run on every allocation, so a crash fails the test instead of the suite."""

import os
import subprocess
import sys

CHILD = """
import gc
import engine as torch
from engine.autograd import Function, gradcheck

gc.set_threshold(1)
x = torch.randn(3, dtype=torch.float64, requires_grad=True)
for _ in range(20):
    class Fresh(Function):
        @staticmethod
        def forward(ctx, t):
            return t.clone()

        @staticmethod
        def backward(ctx, g):
            return g

    Fresh.apply(x).sum().backward()
assert gradcheck(lambda t: t.split(1), (x,))
print("ok")
"""


def test_collector_running_during_a_new_ctx_class_first_instance():
    env = dict(os.environ)
    out = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, timeout=300
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "ok"
