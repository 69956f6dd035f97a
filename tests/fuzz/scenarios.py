"""Composite scenarios: short programs that build state first and then attack it.

A single call cannot reach code that runs later — backward through a graph, hooks and custom
Functions, saved-tensor hooks, views sharing storage, pickling graph nodes, threads. Each scenario
here writes a few lines of source around one or two hostile holes. Each function takes a
``random.Random`` and returns source; ``SCENARIOS`` lists them for ``targets.generate``.
"""

from . import values

LEAF_SHAPES = [(3,), (2, 3), (4, 4), (1,), (), (0,), (3, 1)]

# Differentiable expressions of a leaf ``x``; several create views, which are handled specially.
GRAPH_OPS = [
    "x * 2",
    "x.exp()",
    "x.sum()",
    "x.mean()",
    "x * x",
    "x.sigmoid()",
    "x.reshape(-1)",
    "x[..., :1]",
    "x.unsqueeze(0).expand(2, *x.shape)",
    "x.t() if x.dim() == 2 else x",
    "x.clone()",
    "x.pow(2)",
    "x.abs()",
    "x.relu()",
    "x.cumsum(0) if x.dim() else x",
    "x.flip(0) if x.dim() else x",
    "engine.cat([x, x]) if x.dim() else x",
    "x.max() if x.numel() else x",
    "F.softmax(x, -1) if x.dim() else x",
    "x.norm()",
    "x.var() if x.numel() > 1 else x",
]


def _leaf(rng, shape=None):
    shape = shape if shape is not None else rng.choice(LEAF_SHAPES)
    dtype = rng.choice(["float32", "float32", "float64"])
    return f"engine.randn({values.shape_src(shape)}, dtype=engine.{dtype}, requires_grad=True)"


def _graph(rng):
    """Source defining leaf ``x`` and ``y``, a function of it."""
    return f"x = {_leaf(rng)}\ny = {rng.choice(GRAPH_OPS)}\n"


def _grad_value(rng):
    r = rng.random()
    if r < 0.25:
        return "engine.ones_like(y)"
    if r < 0.5:
        return rng.choice(
            [
                "engine.ones(7)",
                "engine.ones(())",
                "engine.ones_like(y).long()",
                "engine.ones_like(y).bool()",
                "engine.ones_like(y).double()",
                "engine.ones_like(y, requires_grad=True)",
                "engine.ones(1).expand(*y.shape)",
                "engine.ones(*y.shape[::-1]).t() if y.dim() == 2 else engine.ones_like(y)",
                "y",
                "x",
                "[engine.ones_like(y)]",
                "(engine.ones_like(y), engine.ones_like(y))",
                "engine.empty(0)",
                "uninit_tensor()",
            ]
        )
    return values.hostile(rng)


def backward_gradient(rng):
    """backward / autograd.backward / autograd.grad with a hostile gradient or flag."""
    g = _grad_value(rng)
    h = values.hostile(rng)
    call = rng.choice(
        [
            f"y.backward({g})",
            f"y.backward(engine.ones_like(y), retain_graph={h})",
            f"y.backward(engine.ones_like(y), create_graph={h})",
            f"y.backward(engine.ones_like(y), inputs={h})",
            f"y.backward(engine.ones_like(y), inputs=[x, {h}])",
            f"engine.autograd.backward(y, {g})",
            f"engine.autograd.backward([y, y], [{g}, {g}])",
            f"engine.autograd.backward({h})",
            f"engine.autograd.grad(y, x, {g})",
            f"engine.autograd.grad(y, {h}, engine.ones_like(y))",
            f"engine.autograd.grad({h}, x)",
            f"engine.autograd.grad(y, [x, x], engine.ones_like(y), allow_unused={h})",
            f"engine.autograd.grad(y, x, engine.ones_like(y), materialize_grads={h})",
            f"engine._C._run_backward([y], [{g}], False, False, [x], True, {h})",
            f"engine._C._run_backward({h}, [None], False, False, [], True, True)",
            f"engine._C._run_backward([y], {h}, False, False, [], True, True)",
            f"engine._C._run_backward([y], [None], False, False, {h}, False, False)",
        ]
    )
    return _graph(rng) + call


def backward_twice(rng):
    """Runs backward, then touches what it freed: a second backward, nodes and saved values."""
    after = rng.choice(
        [
            "y.backward(engine.ones_like(y))",
            "y.grad_fn(engine.ones_like(y)) if y.grad_fn is not None else None",
            "y.grad_fn.next_functions if y.grad_fn is not None else None",
            "engine.autograd.grad(y, x, engine.ones_like(y))",
            "y.backward(engine.ones_like(y), retain_graph=True)",
            "x.grad.add_(1); y.backward(engine.ones_like(y))",
        ]
    )
    first = rng.choice(["", ", retain_graph=True", ", create_graph=True"])
    return _graph(rng) + f"y.backward(engine.ones_like(y){first})\n{after}"


def node_calls(rng):
    """Calls a grad_fn node directly and through its hooks, with hostile arguments."""
    h = values.hostile(rng)
    hook = values.hook(rng)
    call = rng.choice(
        [
            f"n({h})",
            f"n({h}, {h})",
            "n()",
            "n(engine.ones(7))",
            "n(*[engine.ones_like(y)] * 3)",
            f"n.register_hook({hook})",
            f"n.register_prehook({hook})",
            f"engine._C._register_node_hook(n, {hook})",
            f"engine._C._register_node_prehook(n, {hook})",
            f"engine._C._register_node_hook({h}, {hook})",
            f"engine._C._register_node_prehook({h}, {h})",
            "n.next_functions[0][0].variable if n.next_functions else None",
            "[f for f, _ in n.next_functions if f is not None and f(engine.ones(7))]",
            "n.name()",
            "repr(n)",
            f"n.variable = {h}" if rng.random() < 0.2 else f"n.metadata[{h}] = 1",
            "del x, y\nn.next_functions, n.name(), n(engine.ones(3))",
            f"y._edge_list({h})" if rng.random() < 0.5 else "y._edge_list(0)",
        ]
    )
    body = _graph(rng) + "n = y.grad_fn\nif n is None:\n    n = (x * 1).grad_fn\n" + call
    if rng.random() < 0.4 and not call.startswith("del x, y"):  # y is gone after that call
        body += "\ny.backward(engine.ones_like(y))"
    return body


def hooks_backward(rng):
    """Registers a misbehaving hook somewhere on the graph, then runs backward."""
    hook = values.hook(rng)
    where = rng.choice(
        [
            f"x.register_hook({hook})",
            f"y.register_hook({hook})",
            f"x.register_post_accumulate_grad_hook({hook})",
            f"y.grad_fn.register_hook({hook})",
            f"y.grad_fn.register_prehook({hook})",
            f"y.register_post_accumulate_grad_hook({hook})",
            f"engine._C._tensor_register_hook(x, {hook})",
            f"engine._C._tensor_register_hook({values.hostile(rng)}, {hook})",
            f"engine._C._tensor_register_post_accumulate_grad_hook({values.hostile(rng)}, {hook})",
        ]
    )
    after = rng.choice(
        [
            "y.backward(engine.ones_like(y))",
            "engine.autograd.grad(y, x, engine.ones_like(y))",
            "h.remove()\nh.remove()\ny.backward(engine.ones_like(y))",
            "y.backward(engine.ones_like(y), retain_graph=True)\ny.backward(engine.ones_like(y))",
            "del h\ny.backward(engine.ones_like(y))",
        ]
    )
    return _graph(rng) + f"h = {where}\n{after}"


def custom_function(rng):
    """A custom Function that breaks one rule, applied and differentiated."""
    fn = rng.choice(values.FUNCTION_CLASSES)
    arg = "x" if rng.random() < 0.8 else values.hostile(rng)
    extra = "" if rng.random() < 0.8 else f", {values.hostile(rng)}"
    after = rng.choice(
        [
            "y.sum().backward()",
            "engine.autograd.grad(y.sum(), x)",
            "y.sum().backward(retain_graph=True)\ny.sum().backward()",
            "y.grad_fn.apply(engine.ones_like(y))",
            "y.grad_fn.saved_tensors",
            "(y * 1).sum().backward()\ny.grad_fn.saved_tensors",
            "pickle.dumps(y.grad_fn)",
            "y.add_(1)\ny.sum().backward()",
            "x.add_(1)\ny.sum().backward()" if rng.random() < 0.5 else "x.data = engine.ones(7)",
        ]
    )
    prefix = ""
    if rng.random() < 0.2:
        prefix = "with engine.autograd.detect_anomaly():\n    "
        after = after.replace("\n", "\n    ")
    return f"x = {_leaf(rng)}\n{prefix}y = {fn}.apply({arg}{extra})\n{prefix}{after}"


def saved_tensors_hooks(rng):
    """Pack/unpack hooks that raise or return garbage, around a Function that saves tensors."""
    pack, unpack = values.hook(rng), values.hook(rng)
    fn = rng.choice(["FnSaveOutput", "FnReadSavedTwice", "FnSaveNonTensor", "FnBackwardRaises"])
    inside = rng.choice([f"y = {fn}.apply(x)", "y = x.exp()", f"y = {fn}.apply(x * 2)"])
    after = rng.choice(["y.sum().backward()", "", "y.grad_fn.saved_tensors"])
    if rng.random() < 0.15:
        # Pops the native stack once more than it was pushed. (Pushing without popping is left
        # out: the hooks would outlive the call and be run, or freed, by a later one.)
        return rng.choice(
            [
                "engine._C._pop_saved_tensors_hooks()",
                f"engine._C._push_saved_tensors_hooks({pack}, {unpack})\n"
                "engine._C._pop_saved_tensors_hooks()\nengine._C._pop_saved_tensors_hooks()",
            ]
        )
    return (
        f"x = {_leaf(rng)}\n"
        f"with engine.autograd.graph.saved_tensors_hooks({pack}, {unpack}):\n"
        f"    {inside}\n{after}"
    )


def indexing(rng):
    """``t[key]`` and ``t[key] = value`` with hostile keys and values, sometimes on a graph."""
    t = values.tensor(rng) if rng.random() < 0.85 else rng.choice(values.HOSTILE_TENSORS)
    key = values.hostile_index(rng)
    r = rng.random()
    if r < 0.45:
        return f"t = {t}\nt[{key}]"
    value = rng.choice([values.scalar(rng), values.tensor(rng), values.hostile(rng)])
    if r < 0.85:
        return f"t = {t}\nt[{key}] = {value}\nt"
    return (
        f"x = {_leaf(rng)}\ny = x * 1\ny[{key}] = {value}\n"
        "y.sum().backward() if y.requires_grad else None"
    )


def overlapping_copy(rng):
    """copy_ and in-place ops whose destination overlaps their source or aliases itself."""
    return rng.choice(
        [
            "t = engine.arange(10.0)\nt[1:].copy_(t[:-1])\nt",
            "t = engine.arange(10.0)\nt[:-1].copy_(t[1:])\nt",
            "t = engine.randn(4, 4)\nt.copy_(t.t())\nt",
            "t = engine.randn(4, 4)\nt.t().copy_(t)\nt",
            "t = engine.arange(16.0).reshape(4, 4)\nt.diagonal().copy_(t[0])\nt",
            "t = engine.arange(16.0)\nt[::2].copy_(t[1::2])\nt",
            "e = engine.zeros(1).expand(4)\ne.copy_(engine.arange(4.0))\ne",
            "e = engine.zeros(1, 3).expand(4, 3)\ne.add_(engine.randn(4, 3))\ne",
            "e = engine.zeros(1).expand(4)\ne.mul_(2)\ne.zero_()\ne.fill_(1)",
            "t = engine.arange(10.0)\nt[1:].add_(t[:-1])\nt",
            "t = engine.randn(4, 4)\nt.mul_(t.t())\nt",
            "t = engine.randn(3, 3)\nt[1:].sub_(t[:-1], alpha=2)\nt",
            "t = engine.randn(5)\nengine.add(t[1:], t[:-1], out=t[:-1])\nt",
            "t = engine.randn(5)\nengine.exp(t[1:], out=t[:-1])\nt",
            "t = engine.randn(4)\nengine.mul(t, t, out=t.expand(2, 4))",
            f"t = engine.randn(4, 4)\nt.copy_({values.hostile(rng)})",
            f"t = engine.randn(4, 4)\nengine.add(t, t, out={values.hostile(rng)})",
            f"t = {values.tensor(rng)}\nt.copy_({values.tensor(rng)})",
            "t = engine.randn(3, requires_grad=True)\nt.copy_(engine.ones(3))",
            "t = engine.randn(2, 3)\nt.index_copy_(0, engine.tensor([0, 0]), t)",
            "t = engine.randn(4, 4)\nt.scatter_(0, engine.zeros(4, 4, dtype=engine.int64), t)",
            "t = engine.randn(4, 4)\nt.masked_fill_(t > 0, t)",
        ]
    )


def numpy_lifetime(rng):
    """Memory shared with numpy: who keeps it alive, and writes through odd strides."""
    src = rng.choice(values.HOSTILE_NUMPY)
    return rng.choice(
        [
            f"engine.from_numpy({src})",
            f"t = engine.from_numpy({src})\nt.add_(1)\nt",
            f"a = {src}\nt = engine.from_numpy(a)\ndel a\n(t + 1).sum()",
            "a = engine.ones(3).numpy()\na[0] = 5\na.sum()",
            "a = (engine.randn(4, 4) * 2).numpy()\nimport gc\ngc.collect()\na.sum()",
            "t = engine.randn(4, 4)\na = t.numpy()\ndel t\na += 1\na.sum()",
            "t = engine.randn(4, 4).t()\na = t.numpy()\na.sum()",
            "t = engine.randn(4, 4)[::2]\nnp.asarray(t).sum()",
            "t = engine.from_numpy(zero_stride())\nt.add_(1)\nt.sum()",
            "t = engine.from_numpy(misaligned())\n(t * 2).sum()",
            "t = engine.from_numpy(readonly([1.0, 2.0]))\nt.add_(1)",
            "t = engine.from_numpy(np.ones((3, 4))[:, ::2])\nt.mul_(2)\nt",
            "t = engine.from_numpy(np.arange(6.0)[::-1])\nt + 1",
            "t = engine.tensor(np.ones((2, 3)).T)\nt + 1",
            f"engine.tensor({src}) + 1",
            f"engine.ones(2) + {src}",
            f"{src} + engine.ones(2)",
            f"engine.add(engine.ones(2), {src})",
            f"engine.randn(3).numpy(force={values.hostile(rng)})",
        ]
    )


def pickling(rng):
    """pickle at every protocol, deepcopy and copy of tensors, graph nodes and engine objects."""
    obj = rng.choice(
        [
            values.tensor(rng),
            rng.choice(values.HOSTILE_TENSORS),
            "(engine.randn(3, requires_grad=True) * 2).grad_fn",
            "engine.randn(3, requires_grad=True).sum().grad_fn",
            "FnBackwardRaises.apply(engine.randn(3, requires_grad=True)).grad_fn",
            "engine.float32",
            "engine.Size([2, 3])",
            "engine.Generator()",
            "engine.default_generator",
            "engine.finfo()",
            "engine.randn(3, requires_grad=True).register_hook(hook_str)",
            "engine._C._FunctionCtx()",
            "engine.no_grad()",
        ]
    )
    p = rng.choice(["0", "1", "2", "3", "4", "5", "-1", "pickle.HIGHEST_PROTOCOL"])
    return rng.choice(
        [
            f"pickle.dumps({obj}, protocol={p})",
            f"pickle.loads(pickle.dumps({obj}, protocol={p}))",
            f"copy.deepcopy({obj})",
            f"copy.copy({obj})",
            f"o = {obj}\no.__reduce_ex__({p})",
            f"f, args = ({obj}).__reduce_ex__({p})[:2]\nf(*args)",
            f"f, args = ({obj}).__reduce_ex__({p})[:2]\nf({values.hostile(rng)})",
            f"f, args = ({obj}).__reduce_ex__({p})[:2]\n"
            f"f(*[{values.hostile(rng)} if i == 0 else a for i, a in enumerate(args)])",
            f"o = {obj}\no.__setstate__({values.hostile(rng)})",
        ]
    )


def threads_backward(rng):
    """Backward from several threads at once into shared leaves and a shared graph."""
    n = rng.choice([2, 3, 4])
    iters = rng.choice([1, 5, 20])
    body = rng.choice(
        [
            f"for _ in range({iters}):\n        y.backward(engine.ones_like(y), retain_graph=True)",
            f"for _ in range({iters}):\n        (x * 2).sum().backward()",
            f"for _ in range({iters}):\n        engine.autograd.grad((x * x).sum(), x)",
            f"for _ in range({iters}):\n        x.grad = None\n        (x.exp()).sum().backward()",
            f"for _ in range({iters}):\n        z = FnSaveOutput.apply(x)\n        z.sum().backward()",
            f"for _ in range({iters}):\n        engine.set_default_dtype(engine.float64 if i else "
            "engine.float32)\n        engine.ones(3) + engine.randn(3)",
            f"for _ in range({iters}):\n        with engine.no_grad():\n            x.add_(1)\n"
            "        (x * 2).sum().backward()",
            f"for _ in range({iters}):\n        h = x.register_hook(hook_inplace)\n"
            "        (x * 2).sum().backward()\n        h.remove()",
        ]
    )
    return (
        f"x = engine.randn(64, 64, requires_grad=True)\ny = (x * 3).sum()\n"
        f"def work(i):\n    {body}\nrun_threads(work, {n})"
    )


def deep_graph(rng):
    """A very long chain of nodes: backward and destruction must not recurse per node."""
    depth = rng.choice([1000, 10000, 100000])
    op = rng.choice(["y * 1", "y + 0", "y.exp().log()" if depth <= 10000 else "y * 1", "y[:]"])
    end = rng.choice(["y.sum().backward()", "del y", "engine.autograd.grad(y.sum(), x)"])
    return f"x = engine.randn(2, requires_grad=True)\ny = x\nfor _ in range({depth}):\n    y = {op}\n{end}"


def version_counter(rng):
    """In-place changes to values a graph saved; views of leaves; .grad of the wrong kind."""
    h = values.hostile(rng)
    return rng.choice(
        [
            "x = engine.randn(3, requires_grad=True)\ny = x.exp()\ny.add_(1)\ny.sum().backward()",
            "x = engine.randn(3, requires_grad=True)\ny = x * 2\nz = y[0]\ny.add_(1)\nz.backward()",
            "x = engine.randn(3, requires_grad=True)\nx.view(3).add_(1)",
            "x = engine.randn(3, requires_grad=True)\ny = x.sigmoid()\ny.detach().add_(1)\n"
            "y.sum().backward()",
            "x = engine.randn(3, requires_grad=True)\nx.grad = engine.ones(7)\n(x * 2).sum().backward()",
            "x = engine.randn(3, requires_grad=True)\nx.grad = engine.ones(3, dtype=engine.int64)\n"
            "(x * 2).sum().backward()",
            "x = engine.randn(3, requires_grad=True)\nx.grad = engine.ones(1).expand(3)\n"
            "(x * 2).sum().backward()\nx.grad",
            f"x = engine.randn(3, requires_grad=True)\nx.grad = {h}\n(x * 2).sum().backward()",
            f"x = engine.randn(3, requires_grad=True)\ny = x * 2\ny.retain_grad()\ny.grad = {h}\n"
            "y.sum().backward()",
            "x = engine.randn(3, requires_grad=True)\ny = x[1:]\ny.detach_()",
            "x = engine.randn(3, requires_grad=True)\ny = x * 2\ny.requires_grad_(False)",
            f"x = engine.randn(3, requires_grad=True)\nx.requires_grad_({h})",
            f"x = engine.randn(3, requires_grad=True)\nx.data = {h}\n(x * 2).sum().backward()",
            "x = engine.randn(4, requires_grad=True)\nv = x[::2]\nw = v * 2\nx.data = engine.ones(1)\n"
            "w.sum().backward()",
            "b = engine.randn(4, 4)\nv = b[1:, ::2]\ndel b\nv.add_(1)\nv._base",
            "x = engine.randn(3, requires_grad=True)\ny = x * 2\nx.detach_()",
        ]
    )


def function_internals(rng):
    """The native pieces custom Functions are built from, used on their own."""
    h = values.hostile(rng)
    return rng.choice(
        [
            f"ctx = engine._C._FunctionCtx()\nctx.save_for_backward({h})\nctx.saved_tensors",
            "ctx = engine._C._FunctionCtx()\nctx.saved_tensors",
            "ctx = engine._C._FunctionCtx()\nctx.needs_input_grad, ctx.next_functions",
            f"ctx = engine._C._FunctionCtx()\nctx.mark_dirty({h})",
            f"ctx = engine._C._FunctionCtx()\nctx.mark_non_differentiable({h})",
            f"ctx = engine._C._FunctionCtx()\nctx.set_materialize_grads({h})",
            "b = engine.autograd.function.BackwardCFunction()\nb.apply(engine.ones(3))",
            "b = engine.autograd.function.BackwardCFunction()\nb.saved_tensors, b.name()",
            f"engine._C._FunctionInfo({h}, {h}, {h}, 'x', True, 1, (), {h})",
            f"engine._C._function_apply({h}, engine.ones(3))",
            f"engine._C._function_apply(FnBackwardRaises, {h})",
            f"engine._C._once_differentiable_wrap({h}, {h})",
            f"engine._C._CtxTensorAttr.__get__({h}, {h}, {h})",
            f"engine._C._CtxTensorAttr.__set__({h}, {h}, {h})",
            f"engine._C._CtxTensorAttr.__delete__({h}, {h})",
            f"engine.autograd.function.once_differentiable({h})",
            "class G(engine.autograd.Function):\n    pass\nG.apply(engine.ones(3))",
            f"engine.autograd.Function.apply({h})",
            f"engine.autograd.gradcheck({rng.choice(values.FUNCTION_CLASSES)}.apply, "
            "(engine.randn(3, dtype=engine.float64, requires_grad=True),))",
            f"engine.autograd.gradcheck({h}, (engine.randn(2, dtype=engine.float64, "
            "requires_grad=True),))",
        ]
    )


def global_state(rng):
    """Process-wide settings set to hostile values, then used. The child restores them after."""
    h = values.hostile(rng)
    use = rng.choice(
        [
            "repr(engine.randn(3, 4))",
            "engine.tensor([1.0, 2.0]) + 1",
            "engine.arange(3.0)",
            "engine.randn(2)",
            "(engine.randn(3, requires_grad=True) * 2).sum().backward()",
            "str(engine.randn(200))",
        ]
    )
    setting = rng.choice(
        [
            f"engine.set_default_dtype({h})",
            f"engine.set_default_dtype({values.dtype(rng)})",
            f"engine.set_printoptions(precision={h})",
            f"engine.set_printoptions(threshold={h})",
            f"engine.set_printoptions(linewidth={h}, edgeitems={h})",
            f"engine.set_printoptions(profile={h})",
            f"engine.set_grad_enabled({h})",
            f"engine._C._set_grad_enabled({h})",
            f"engine._C._set_anomaly_enabled({h}, {h})",
            f"engine.autograd.set_detect_anomaly({h})",
            "engine.no_grad().__exit__(None, None, None)",
            "engine.inference_mode().__exit__(None, None, None)",
            f"engine.no_grad()({h})",
            f"engine.manual_seed({h})",
            f"engine.default_generator.manual_seed({h})",
            f"g = engine.Generator({h})\nengine.randn(3, generator=g)",
            f"engine.randn(3, generator={h})",
            f"engine.rand(3).uniform_({h}, {h})",
            f"engine.randn(3).normal_({h}, {h})",
            "engine._C._release_cached_buffers()",
        ]
    )
    return f"{setting}\n{use}"


SCENARIOS = [
    ("backward_gradient", backward_gradient),
    ("backward_twice", backward_twice),
    ("node_calls", node_calls),
    ("hooks_backward", hooks_backward),
    ("custom_function", custom_function),
    ("saved_tensors_hooks", saved_tensors_hooks),
    ("indexing", indexing),
    ("indexing", indexing),  # listed twice: indexing has the most code paths behind one syntax
    ("overlapping_copy", overlapping_copy),
    ("numpy_lifetime", numpy_lifetime),
    ("pickling", pickling),
    ("threads_backward", threads_backward),
    ("deep_graph", deep_graph),
    ("version_counter", version_counter),
    ("function_internals", function_internals),
    ("global_state", global_state),
]
