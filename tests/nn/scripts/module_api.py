"""Module API: hooks (forward, pre, full backward), shared parameters, copies, container reprs,
dtype moves, buffers and state-dict errors. Run with the library name as argument."""

import copy
import pickle
import sys
import warnings

lib = __import__(sys.argv[1])
nn = lib.nn
lib.manual_seed(0)
m = nn.Linear(3, 2)
log = []
m.register_forward_pre_hook(lambda mod, args: log.append(("pre", len(args))))
m.register_forward_hook(lambda mod, args, out: log.append(("fwd", tuple(out.shape))))
m.register_full_backward_pre_hook(
    lambda mod, go: log.append(("bpre", [tuple(g.shape) for g in go]))
)


def bh(mod, gi, go):
    log.append(
        ("bwd", [None if g is None else tuple(g.shape) for g in gi], [tuple(g.shape) for g in go])
    )
    return None if gi[0] is None else (gi[0] * 2,)


m.register_full_backward_hook(bh)
x = lib.randn(4, 3, requires_grad=True)
y = m(x)
y.sum().backward()
print(log)
print(x.grad)
print(m.weight.grad)
x2 = lib.randn(4, 3)
log.clear()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    m(x2).sum().backward()
print(log)
print([str(w.message) for w in caught])
h = m.register_forward_hook(lambda mod, args, kwargs, out: out * 0, with_kwargs=True)
print(m(x2).abs().sum().item())
h.remove()
print(m(x2).abs().sum().item() > 0)
s = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
s2 = nn.Sequential(s[0], s[0])
print(
    [n for n, _ in s2.named_parameters()],
    len(list(s2.parameters())),
    [n for n, _ in s2.named_modules()],
)
print([n for n, _ in s2.named_parameters(remove_duplicate=False)])
c = copy.deepcopy(s)
print(c, c[0].weight is s[0].weight, bool((c[0].weight == s[0].weight).all()))
p = pickle.loads(pickle.dumps(s))
print(type(p[0].weight).__name__, p[0].weight.requires_grad)
ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)] + [nn.ReLU()])
print(ml)
pl = nn.ParameterList([nn.Parameter(lib.ones(2, 3)), lib.zeros(2)])
print(pl)
pd = nn.ParameterDict({"b": nn.Parameter(lib.ones(2)), "a": lib.zeros(1)})
print(pd, list(pd.keys()))
md = nn.ModuleDict({"lin": nn.Linear(1, 1), "act": nn.Tanh()})
print(md)
print(nn.Sequential(nn.Linear(1, 1), nn.ReLU(), nn.Tanh())[1:])
m2 = nn.Linear(2, 2).double()
print(m2.weight.dtype, m2.bias.dtype)
try:
    nn.Linear(2, 2).to(lib.int64)
except Exception as e:
    print(type(e).__name__, e)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(1, 1)
        self.register_buffer("buf", lib.zeros(1))
        self.register_buffer("tmp", lib.zeros(1), persistent=False)
        self.x = 3


n = Net()
print(
    list(n.state_dict()),
    [k for k, _ in n.named_buffers()],
    sorted(k for k in dir(n) if not k.startswith("_"))[:8],
)
del n.a
print(list(n.state_dict()))
print(n.load_state_dict({"buf": lib.ones(1)}))
try:
    n.load_state_dict({"buf": lib.ones(1), "zz": lib.ones(1)})
except Exception as e:
    print(repr(e))
try:
    n.load_state_dict({})
except Exception as e:
    print(repr(e))
