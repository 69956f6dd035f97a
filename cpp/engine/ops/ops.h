#pragma once
// The differentiable operations. Each records a <Op>Backward node when grad mode is on and an input
// requires grad; backward rules are written with these same functions, so under create_graph they
// record their own history and give higher derivatives.
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "engine/core/tensor.h"

namespace engine::kernels {
enum class UnaryOp;  // kernels/elementwise.h
}

namespace engine::ops {

// ---- creation (no history) ----
Tensor empty(const Dims& shape, DType dtype);
Tensor full(const Dims& shape, double value, DType dtype);
// Filled from a 0-d tensor, so 64-bit integers stay exact; out-of-range values are errors.
Tensor full(const Dims& shape, const Tensor& value, DType dtype);
Tensor zeros(const Dims& shape, DType dtype);
Tensor ones(const Dims& shape, DType dtype);
// A Python number taking part in an operation (0-d, lower promotion priority).
Tensor wrapped_scalar(double value, DType dtype);
// A wrapped number stored in `stored` (the value must be exact in it) that PyTorch would have
// wrapped as `shown`: what the saved-tensor getters display.
Tensor wrapped_scalar_as(double value, DType stored, DType shown);
Tensor arange(double start, double end, double step, DType dtype);
Tensor arange(int64_t start, int64_t end, int64_t step, DType dtype);  // exact for any int64
Tensor linspace(double start, double end, int64_t steps, DType dtype);

// ---- type promotion ----
DType result_type(const Tensor& a, const Tensor& b);
// add/sub's alpha must fit the result: no float alpha for integral results, bool alpha only for
// bool results (PyTorch's alpha_check). `alpha` is the dtype of the Python number given.
void alpha_check(DType result, DType alpha);

// ---- conversion and copies ----
Tensor to_dtype(const Tensor& t, DType dtype);  // returns t itself when the dtype already matches
Tensor clone(const Tensor& t);
Tensor contiguous(const Tensor& t);

// ---- arithmetic ----
Tensor add(const Tensor& a, const Tensor& b, double alpha = 1.0);
Tensor sub(const Tensor& a, const Tensor& b, double alpha = 1.0);
Tensor mul(const Tensor& a, const Tensor& b);
// A Python number v (a float when number_dtype is Float64; an int below 2**53 in magnitude when
// Int64) as the 0-d tensor PyTorch wraps it in, stored in tensor_dtype when that is float32 or
// float64 and holds v exactly (it still shows as number_dtype).
Tensor number_as_tensor(double v, DType number_dtype, DType tensor_dtype);
// The ops with a Python number v (as above) for an operand: the same results, nodes and saved
// attributes as the ops given number_as_tensor(v), the number applied as a value when a is float32
// or float64 instead of becoming a 0-d tensor. rsub_number is v - a (Tensor.__rsub__).
Tensor mul_number(const Tensor& a, double v, DType number_dtype);
Tensor add_number(const Tensor& a, double v, DType number_dtype);
Tensor sub_number(const Tensor& a, double v, DType number_dtype);
Tensor rsub_number(double v, DType number_dtype, const Tensor& a);
Tensor div_number(const Tensor& a, double v, DType number_dtype);
Tensor pow_number(const Tensor& a, double exponent, DType number_dtype);
Tensor div(const Tensor& a, const Tensor& b);
// out= of the four: the kernel writes straight into `out` and true is returned when out already has
// the result's shape and dtype and does not partially overlap an input (arith_out.cpp); false leaves
// out untouched, for the caller's fresh-result-and-copy path. Nothing is recorded (out= refuses
// inputs that require grad before this is reached).
bool add_out(const Tensor& out, const Tensor& a, const Tensor& b, double alpha);
bool sub_out(const Tensor& out, const Tensor& a, const Tensor& b, double alpha);
bool mul_out(const Tensor& out, const Tensor& a, const Tensor& b);
bool div_out(const Tensor& out, const Tensor& a, const Tensor& b);
// out= of a float function of one float32 / float64 tensor written straight into out where out has
// the input's dtype and shape and the input can be read safely; false (nothing written) otherwise.
bool unary_out(kernels::UnaryOp op, const Tensor& out, const Tensor& a);
Tensor pow(const Tensor& a, const Tensor& b);
Tensor neg(const Tensor& a);
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b);
Tensor maximum(const Tensor& a, const Tensor& b);
Tensor minimum(const Tensor& a, const Tensor& b);

// ---- unary ----
Tensor exp(const Tensor& a);
Tensor log(const Tensor& a);
Tensor sqrt(const Tensor& a);
Tensor sin(const Tensor& a);
Tensor cos(const Tensor& a);
Tensor tanh(const Tensor& a);
Tensor sigmoid(const Tensor& a);
Tensor relu(const Tensor& a);
// value where a <= threshold, a elsewhere (NaN stays NaN); and its backward, PyTorch's threshold_backward.
Tensor threshold(const Tensor& a, double threshold, double value);
Tensor threshold_grad(const Tensor& g, const Tensor& x, double threshold);
Tensor abs(const Tensor& a);
Tensor sign(const Tensor& a);
Tensor sgn(const Tensor& a);  // z / |z| for complex z, sign(x) for real x

// ---- comparisons (bool results, no history) ----
Tensor eq(const Tensor& a, const Tensor& b);
Tensor ne(const Tensor& a, const Tensor& b);
Tensor lt(const Tensor& a, const Tensor& b);
Tensor le(const Tensor& a, const Tensor& b);
Tensor gt(const Tensor& a, const Tensor& b);
Tensor ge(const Tensor& a, const Tensor& b);

// ---- reductions ----
// dims empty means all dims.
Tensor sum(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim, std::optional<DType> dtype = std::nullopt);
Tensor mean(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim, std::optional<DType> dtype = std::nullopt);
// Sums a (broadcast) gradient back to `shape`.
Tensor sum_to(const Tensor& a, const Dims& shape);

// ---- linear algebra ----
Tensor matmul(const Tensor& a, const Tensor& b);
Tensor mm(const Tensor& a, const Tensor& b);

// ---- shape and views ----
Tensor view(const Tensor& a, const Dims& shape);     // shares storage; error if impossible
Tensor reshape(const Tensor& a, const Dims& shape);  // view when possible, copy otherwise
Tensor transpose(const Tensor& a, int64_t d0, int64_t d1);
Tensor t(const Tensor& a);
Tensor unsqueeze(const Tensor& a, int64_t dim);
Tensor squeeze(const Tensor& a, std::optional<int64_t> dim);
// squeeze over a list of dims (PyTorch's squeeze(dim=(1, 2))): those of size 1 among them go.
Tensor squeeze_dims(const Tensor& a, const std::vector<int64_t>& dims);
Tensor expand(const Tensor& a, const Dims& shape);
Tensor permute(const Tensor& a, const Dims& dims);
// a[..., index, ...] along `dim`: a view with that dim removed.
Tensor select(const Tensor& a, int64_t dim, int64_t index);
// The gradient of select: zeros of `input_shape` with `grad` written at `index` along `dim`.
Tensor select_backward(const Tensor& grad, const Dims& input_shape, int64_t dim, int64_t index);
// Resolves a -1 entry in a requested shape against numel (PyTorch's infer_size).
Dims infer_size(const Dims& shape, int64_t numel);

// ---- indexing, strided views and joining (index.cpp, join.cpp) ----
// A strided view is described by a function from a layout (shape, strides, offset) to the view's
// layout; applied to a contiguous buffer of the input's shape it also locates the gradient.
struct ViewGeom {
  Dims shape, strides;
  int64_t offset;
};
using ViewFn = std::function<ViewGeom(const Dims& shape, const Dims& strides, int64_t offset)>;
Tensor strided_view(const Tensor& a, ViewFn fn, const char* name = "AsStridedBackward0");
// A fresh contiguous copy of `base` with `src` written into fn's region (differentiable in both).
Tensor strided_view_scatter(const Tensor& base, const Tensor& src, ViewFn fn);
// Gives `base` (whose fn-region has just been overwritten by `src` in place) the history of that
// write: PyTorch's CopySlices.
void rebase_history_of_view(const Tensor& base, const Tensor& src, ViewFn fn);
// A view written in place by an autograd.Function (ctx.mark_dirty) and given the Function's node:
// that history moves into its base (PyTorch's CopySlices), the view becoming a view of it.
void rebase_dirty_view(Tensor& view);
Tensor slice(const Tensor& a, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step);
Tensor narrow(const Tensor& a, int64_t dim, int64_t start, int64_t length);
Tensor diagonal(const Tensor& a, int64_t offset, int64_t dim1, int64_t dim2);
Tensor index_select(const Tensor& a, int64_t dim, const Tensor& index);
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, double alpha = 1.0);
// Gives `out` (advanced indexing's values, computed without history from `self`) its
// IndexBackward0 node (index_node.cpp); `indices` are what the node shows as _saved_indices.
void record_index(const Tensor& out, const Tensor& self, const Tensor& positions, const Dims& gather_order,
                  const Dims& flat_shape, const Dims& out_perm, const std::vector<std::optional<Tensor>>& indices);
Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor gather(const Tensor& a, int64_t dim, const Tensor& index);
// scatter (add=false) and scatter_add (add=true), out of place.
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, bool add);
// scatter(dim, index, value): `value` (no history) already expanded to the index's shape.
Tensor scatter_value(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value);
// unbind: the slices of `a` along `dim`, views of `a` sharing one UnbindBackward0 node.
TensorList unbind(const Tensor& a, int64_t dim);
// The pieces of `a` along `dim` of the given lengths (summing to its size there), sharing one node:
// views for split / split_with_sizes, tensors sharing `a`'s memory but not views for the unsafe_
// variants. `split_size` is what split was given (the node shows it).
enum class SplitKind { Split, SplitWithSizes, UnsafeSplit, UnsafeSplitWithSizes };
TensorList split_pieces(const Tensor& a, const std::vector<int64_t>& lengths, int64_t dim, SplitKind kind,
                        int64_t split_size = 0);
Tensor cat(const TensorList& tensors, int64_t dim);
Tensor stack(const TensorList& tensors, int64_t dim);
// The standard normal CDF, 0.5 * erfc(-x / sqrt(2)) (GELU's gate).
Tensor normal_cdf(const Tensor& a);

// ---- in place (bump the version; rebase history when recording) ----
Tensor& add_(Tensor& self, const Tensor& other, double alpha = 1.0);
Tensor& sub_(Tensor& self, const Tensor& other, double alpha = 1.0);
Tensor& mul_(Tensor& self, const Tensor& other);
Tensor& div_(Tensor& self, const Tensor& other);
// The four with a Python number (see add_number): written straight into self when nothing records.
Tensor& add_number_(Tensor& self, double v, DType number_dtype);
Tensor& sub_number_(Tensor& self, double v, DType number_dtype);
Tensor& mul_number_(Tensor& self, double v, DType number_dtype);
Tensor& div_number_(Tensor& self, double v, DType number_dtype);
Tensor& fill_(Tensor& self, double value);
// fill_ with a 0-d tensor value, which receives the sum of the gradient (FillBackward3).
Tensor& fill_(Tensor& self, const Tensor& value);
Tensor& zero_(Tensor& self);
Tensor& copy_(Tensor& self, const Tensor& src);

// ---- more pointwise functions (unary.cpp) ----
Tensor exp2(const Tensor& a);
Tensor expm1(const Tensor& a);
Tensor log2(const Tensor& a);
Tensor log10(const Tensor& a);
Tensor log1p(const Tensor& a);
Tensor rsqrt(const Tensor& a);
Tensor reciprocal(const Tensor& a);
Tensor tan(const Tensor& a);
Tensor asin(const Tensor& a);
Tensor acos(const Tensor& a);
Tensor atan(const Tensor& a);
Tensor sinh(const Tensor& a);
Tensor cosh(const Tensor& a);
Tensor erf(const Tensor& a);
Tensor floor(const Tensor& a);
Tensor ceil(const Tensor& a);
Tensor trunc(const Tensor& a);
Tensor round(const Tensor& a, int64_t decimals = 0);
Tensor bitwise_not(const Tensor& a);  // bool and integer tensors only
// bool results, no history
Tensor logical_not(const Tensor& a);
Tensor isnan(const Tensor& a);
Tensor isinf(const Tensor& a);
Tensor isfinite(const Tensor& a);

// ---- more binary functions (arith.cpp) ----
Tensor atan2(const Tensor& a, const Tensor& b);
Tensor fmod(const Tensor& a, const Tensor& b);       // sign of the dividend
Tensor remainder(const Tensor& a, const Tensor& b);  // sign of the divisor (Python's %)
Tensor floor_divide(const Tensor& a, const Tensor& b);  // Python's //; not differentiable
Tensor bitwise_and(const Tensor& a, const Tensor& b);
Tensor bitwise_or(const Tensor& a, const Tensor& b);
Tensor bitwise_xor(const Tensor& a, const Tensor& b);
Tensor bitwise_left_shift(const Tensor& a, const Tensor& b);   // a << b, PyTorch's out-of-range counts
Tensor bitwise_right_shift(const Tensor& a, const Tensor& b);  // a >> b (arithmetic for signed types)
Tensor logical_and(const Tensor& a, const Tensor& b);
Tensor logical_or(const Tensor& a, const Tensor& b);
Tensor logical_xor(const Tensor& a, const Tensor& b);
// Bounds are optional tensors (Python numbers wrapped); at least one must be given.
Tensor clamp(const Tensor& a, const std::optional<Tensor>& min, const std::optional<Tensor>& max);
Tensor lerp(const Tensor& start, const Tensor& end, const Tensor& weight);

// ---- more reductions (reduce.cpp); dims empty means all dims ----
Tensor prod(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim, std::optional<DType> dtype = std::nullopt);
Tensor amax(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim);
Tensor amin(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim);
// max() / min() of all elements (gradient shared among ties, as amax's).
Tensor max_all(const Tensor& a);
Tensor min_all(const Tensor& a);
// max(dim) / min(dim): values and int64 indices (the gradient goes to the index).
std::pair<Tensor, Tensor> max_dim(const Tensor& a, int64_t dim, bool keepdim);
std::pair<Tensor, Tensor> min_dim(const Tensor& a, int64_t dim, bool keepdim);
Tensor argmax(const Tensor& a, std::optional<int64_t> dim, bool keepdim);
Tensor argmin(const Tensor& a, std::optional<int64_t> dim, bool keepdim);
Tensor var(const Tensor& a, const std::vector<int64_t>& dims, double correction, bool keepdim);
Tensor std(const Tensor& a, const std::vector<int64_t>& dims, double correction, bool keepdim);
// (min, max) over dim (all elements when none), both outputs of one node.
std::pair<Tensor, Tensor> aminmax(const Tensor& a, std::optional<int64_t> dim, bool keepdim);
// (var, mean) or, with is_std, (std, mean) over dims, both outputs of one node.
std::pair<Tensor, Tensor> var_mean(const Tensor& a, const std::vector<int64_t>& dims, double correction, bool keepdim,
                                   bool is_std);
// p-norm over dims (p = inf / -inf for the largest / smallest magnitude).
Tensor norm(const Tensor& a, double p, const std::vector<int64_t>& dims, bool keepdim);
Tensor clamp_min(const Tensor& a, const Tensor& min);
Tensor clamp_max(const Tensor& a, const Tensor& max);
Tensor logsumexp(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim);
// softmax (log=false) or log_softmax along dim, one node that saves the result (softmax.cpp).
Tensor softmax(const Tensor& a, int64_t dim, bool log);
Tensor cumsum(const Tensor& a, int64_t dim, std::optional<DType> dtype = std::nullopt);
Tensor cumprod(const Tensor& a, int64_t dim, std::optional<DType> dtype = std::nullopt);
Tensor all(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim);
Tensor any(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim);

// ---- more linear algebra (linalg.cpp) ----
Tensor bmm(const Tensor& a, const Tensor& b);
Tensor mv(const Tensor& a, const Tensor& v);
Tensor dot(const Tensor& a, const Tensor& b);
Tensor outer(const Tensor& a, const Tensor& b);

// ---- more in place (inplace.cpp): self = f(self), with the version bumped ----
// `other`: a further input of f, if any (it decides, with self, whether the op records).
Tensor& apply_(Tensor& self, const std::function<Tensor(const Tensor&)>& f, const Tensor* other = nullptr);

// ---- convolution and pooling (conv.cpp, pool.cpp, unfold_view.cpp) ----
// Inputs are (N, C, *spatial) with 1-3 spatial dims (the kernel's length); lists hold one value
// per spatial dim. im2col gives (N, C * prod(kernel), L); col2im is its adjoint (F.fold).
Tensor im2col(const Tensor& x, const Dims& kernel, const Dims& dilation, const Dims& padding, const Dims& stride);
Tensor col2im(const Tensor& cols, const Dims& output_size, const Dims& kernel, const Dims& dilation,
              const Dims& padding, const Dims& stride);
// torch.convolution: weight (O, C/groups, *k), or (C, O/groups, *k) when transposed.
Tensor convolution(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, const Dims& stride,
                   const Dims& padding, const Dims& dilation, bool transposed, const Dims& output_padding,
                   int64_t groups);
// Pooling over the trailing kernel.size() dims (any leading dims are planes). The max forms
// return values and int64 flat indices within each plane.
std::pair<Tensor, Tensor> max_pool(const Tensor& x, const Dims& kernel, const Dims& stride, const Dims& padding,
                                   const Dims& dilation, bool ceil_mode);
std::pair<Tensor, Tensor> adaptive_max_pool(const Tensor& x, const Dims& output_size);
Tensor avg_pool(const Tensor& x, const Dims& kernel, const Dims& stride, const Dims& padding, bool ceil_mode,
                bool count_include_pad, std::optional<int64_t> divisor_override);
Tensor adaptive_avg_pool(const Tensor& x, const Dims& output_size);
// Tensor.unfold: a view with windows of `size` taken every `step` along `dim`, as a new last dim.
Tensor unfold_view(const Tensor& a, int64_t dim, int64_t size, int64_t step);
// ---- special and less common pointwise functions (special.cpp) ----
// Floating functions: integer and bool inputs compute in the default dtype.
Tensor acosh(const Tensor& a);
Tensor asinh(const Tensor& a);
Tensor atanh(const Tensor& a);
Tensor lgamma(const Tensor& a);
Tensor digamma(const Tensor& a);
Tensor polygamma(int64_t n, const Tensor& a);  // n >= 0
Tensor erfc(const Tensor& a);
Tensor erfinv(const Tensor& a);
Tensor i0(const Tensor& a);
Tensor special_i1(const Tensor& a);
Tensor sinc(const Tensor& a);
Tensor frac(const Tensor& a);  // floating inputs only
Tensor deg2rad(const Tensor& a);
Tensor rad2deg(const Tensor& a);
Tensor signbit(const Tensor& a);  // bool result, no history
// (mantissa, int32 exponent); floating inputs only.
std::pair<Tensor, Tensor> frexp(const Tensor& a);
Tensor copysign(const Tensor& a, const Tensor& b);
Tensor heaviside(const Tensor& a, const Tensor& values);  // same dtypes; no derivative
Tensor nextafter(const Tensor& a, const Tensor& b);
Tensor fmax(const Tensor& a, const Tensor& b);  // NaN-ignoring maximum
Tensor fmin(const Tensor& a, const Tensor& b);
Tensor igamma(const Tensor& a, const Tensor& x);   // regularised lower incomplete gamma P(a, x)
Tensor igammac(const Tensor& a, const Tensor& x);  // Q(a, x) = 1 - P(a, x)
Tensor logaddexp(const Tensor& a, const Tensor& b);
Tensor logaddexp2(const Tensor& a, const Tensor& b);
Tensor hypot(const Tensor& a, const Tensor& b);  // floating only, without intermediate overflow
Tensor xlogy(const Tensor& a, const Tensor& b);  // a * log(b), 0 where a == 0 (unless b is NaN)
// log(a / (1 - a)), a clamped to [eps, 1 - eps] first when eps is given (and >= 0).
Tensor logit(const Tensor& a, std::optional<double> eps);
Tensor gcd(const Tensor& a, const Tensor& b);  // integers only
Tensor lcm(const Tensor& a, const Tensor& b);

// In place with several further inputs (any of which may decide that the op records).
Tensor& apply_(Tensor& self, const std::function<Tensor(const Tensor&)>& f, const TensorList& others);
// Shape-changing in place (t_, squeeze_, transpose_ ...): self takes the geometry and history of
// `view_fn(self)`, a view of itself.
Tensor& restride_(Tensor& self, const std::function<Tensor(const Tensor&)>& view_fn);

// Operator sugar for backward formulas.
inline Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
inline Tensor operator-(const Tensor& a, const Tensor& b) { return sub(a, b); }
inline Tensor operator*(const Tensor& a, const Tensor& b) { return mul(a, b); }
inline Tensor operator/(const Tensor& a, const Tensor& b) { return div(a, b); }
inline Tensor operator-(const Tensor& a) { return neg(a); }
Tensor operator*(const Tensor& a, double s);
Tensor operator+(const Tensor& a, double s);
Tensor operator-(double s, const Tensor& a);

}  // namespace engine::ops
