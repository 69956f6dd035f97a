"""Mixed-precision spellings real code applies to custom Functions: torch.amp / torch.cuda.amp
decorators, GradScaler and autocast on a machine without CUDA."""

import importlib
import sys
import warnings

warnings.simplefilter("always")
lib = __import__(sys.argv[1])
cuda_amp = importlib.import_module(sys.argv[1] + ".cuda.amp")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")

    class F(lib.autograd.Function):
        @staticmethod
        @cuda_amp.custom_fwd
        def forward(ctx, x):
            return x * 2

        @staticmethod
        @cuda_amp.custom_bwd
        def backward(ctx, g):
            return g * 2

    class G(lib.autograd.Function):
        @staticmethod
        @lib.amp.custom_fwd(device_type="cuda", cast_inputs=lib.float32)
        def forward(ctx, x):
            return x * 3

        @staticmethod
        @lib.amp.custom_bwd(device_type="cuda")
        def backward(ctx, g):
            return g * 3

    x = lib.ones(2, requires_grad=True)
    F.apply(x).sum().backward()
    print(x.grad)
    G.apply(x).sum().backward()
    print(x.grad)
    s = cuda_amp.GradScaler()
    print(s.is_enabled(), s.get_scale(), s.state_dict())
    s2 = lib.amp.GradScaler()
    print(s2.is_enabled())
    with cuda_amp.autocast():
        print((lib.ones(2, 2) @ lib.ones(2, 2)).dtype)
    with lib.autocast("cuda"):
        pass
print([str(w.message) for w in caught])
try:
    lib.amp.custom_fwd(lambda c, x: x)
except TypeError as e:
    print(e)
