#pragma once
// Complex tensors (complex64, complex128). A complex tensor's memory is its real view's: pairs of
// (real, imaginary) float32 or float64. Every complex op is written as real ops on that view,
// joined by the two differentiable views view_as_real and view_as_complex. Autograd through them
// gives PyTorch's convention by construction: the gradient of a real loss L with respect to
// z = x + iy is dL/dx + i dL/dy (the conjugate Wirtinger derivative, times two), which is the real
// view's gradient read back as complex.
#include <optional>
#include <vector>

#include "engine/core/tensor.h"
#include "engine/kernels/complex_math.h"
#include "engine/kernels/elementwise.h"

namespace engine::ops {

// torch.view_as_real: shape + [2], sharing z's storage (ViewAsRealBackward0).
Tensor view_as_real(const Tensor& z);
// The complex tensor read from `pairs`, the fresh result of a real op that nobody else sees: not
// a view (in-place ops then treat it as the new tensor it is), its gradient through the real view.
Tensor complex_from_pairs(const Tensor& pairs);
// torch.view_as_complex: a float32/float64 tensor whose last dim is (real, imaginary), with
// PyTorch's layout checks (ViewAsComplexBackward0).
Tensor view_as_complex(const Tensor& r);
// Tensor.real / Tensor.imag: views of one half (real() of a real tensor is the tensor itself).
Tensor real(const Tensor& z);
Tensor imag(const Tensor& z);
// torch.complex(real, imag) and torch.polar(abs, angle).
Tensor complex(const Tensor& re, const Tensor& im);
Tensor polar(const Tensor& abs, const Tensor& angle);
// torch.linspace with a complex end point or dtype: the two parts spaced separately (a real
// dtype for complex end points is PyTorch's error).
Tensor complex_linspace(const Tensor& start, const Tensor& end, int64_t steps, DType dtype);
// The complex conjugate, as a new tensor (engine keeps no lazy conjugate bit).
Tensor conj_physical(const Tensor& z);

// The complex paths of the real ops: each real op calls its complex_* twin when an operand is
// complex. Operands are promoted with PyTorch's rules first.
Tensor complex_add(const Tensor& a, const Tensor& b, double alpha);
Tensor complex_sub(const Tensor& a, const Tensor& b, double alpha);
Tensor complex_mul(const Tensor& a, const Tensor& b);
Tensor complex_div(const Tensor& a, const Tensor& b);
Tensor complex_neg(const Tensor& z);
Tensor complex_abs(const Tensor& z);  // real result, gradient 0 at 0 (PyTorch's sgn)
Tensor complex_angle(const Tensor& z);  // real result, gradient 0 at 0
Tensor complex_exp(const Tensor& z);
// The real unary ops' complex paths (complex_math.cpp): log, sqrt, sin, ... with the op's node
// name; ops without one raise PyTorch's NotImplementedError naming their kernel.
Tensor complex_unary(kernels::UnaryOp op, const Tensor& z, const char* name);
Tensor complex_function(kernels::ComplexFn fn, const Tensor& z, const char* name);
// a ** b with a complex side (either may be a wrapped Python number), with PyTorch's gradients.
Tensor complex_pow(const Tensor& a, const Tensor& b);
Tensor complex_sum(const Tensor& z, const std::vector<int64_t>& dims, bool keepdim);
Tensor complex_mean(const Tensor& z, const std::vector<int64_t>& dims, bool keepdim);
// prod (ProdBackward0/1), cumsum, cumprod and var (real: the parts' variances added) of complex z.
Tensor complex_prod(const Tensor& z, const std::vector<int64_t>& dims, bool keepdim);
Tensor complex_cumsum(const Tensor& z, int64_t dim);
Tensor complex_cumprod(const Tensor& z, int64_t dim);
Tensor complex_var(const Tensor& z, const std::vector<int64_t>& dims, double correction, bool keepdim);
Tensor complex_matmul(const Tensor& a, const Tensor& b);
// eq (equal = true) or ne of two operands, either complex: both halves compared.
Tensor complex_equal(const Tensor& a, const Tensor& b, bool equal);
// where(cond, a, b) with a complex side: the (real, imaginary) pairs chosen together.
Tensor complex_where(const Tensor& cond, const Tensor& a, const Tensor& b);

inline bool any_complex(const Tensor& a, const Tensor& b) { return is_complex(a.dtype()) || is_complex(b.dtype()); }

}  // namespace engine::ops
