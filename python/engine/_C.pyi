"""
engine's native core
"""
from __future__ import annotations
import collections.abc
class OutOfMemoryError(RuntimeError, MemoryError): ...
import numpy
import typing
__all__: list[str] = ['Generator', 'Node', 'OutOfMemoryError', 'SavedTensor', 'Tensor', 'abs', 'acos', 'acosh', 'add', 'all', 'amax', 'amin', 'any', 'arange', 'argmax', 'argmin', 'asin', 'asinh', 'atan', 'atan2', 'atanh', 'bfloat16', 'bitwise_and', 'bitwise_left_shift', 'bitwise_not', 'bitwise_or', 'bitwise_right_shift', 'bitwise_xor', 'bmm', 'bool', 'can_cast', 'cat', 'ceil', 'clamp', 'clip', 'clone', 'convolution', 'copysign', 'cos', 'cosh', 'cumprod', 'cumsum', 'default_generator', 'deg2rad', 'detach', 'diagonal', 'digamma', 'div', 'dot', 'dtype', 'empty', 'empty_like', 'eq', 'erf', 'erfc', 'erfinv', 'exp', 'exp2', 'expm1', 'float16', 'float32', 'float64', 'floor', 'floor_divide', 'fmax', 'fmin', 'fmod', 'frac', 'frexp', 'from_numpy', 'full', 'full_like', 'gather', 'gcd', 'ge', 'get_default_dtype', 'get_num_threads', 'gt', 'heaviside', 'hypot', 'i0', 'igamma', 'igammac', 'index_add', 'index_copy', 'index_select', 'int16', 'int32', 'int64', 'int8', 'is_anomaly_check_nan_enabled', 'is_anomaly_enabled', 'is_grad_enabled', 'is_inference', 'is_inference_mode_enabled', 'is_tensor', 'isfinite', 'isinf', 'isnan', 'lcm', 'le', 'lerp', 'lgamma', 'linear', 'linspace', 'log', 'log10', 'log1p', 'log2', 'logaddexp', 'logaddexp2', 'logical_and', 'logical_not', 'logical_or', 'logical_xor', 'logit', 'logsumexp', 'lt', 'matmul', 'max', 'maximum', 'min', 'minimum', 'mm', 'mul', 'mv', 'narrow', 'ne', 'neg', 'nextafter', 'norm', 'numel', 'ones', 'ones_like', 'outer', 'permute', 'polygamma', 'pow', 'prod', 'promote_types', 'rad2deg', 'rand', 'randint', 'randn', 'reciprocal', 'relu', 'remainder', 'reshape', 'result_type', 'round', 'rsqrt', 'scatter', 'scatter_add', 'select', 'set_default_dtype', 'set_num_threads', 'sigmoid', 'sign', 'signbit', 'sin', 'sinc', 'sinh', 'sqrt', 'squeeze', 'stack', 'std', 'sub', 't', 'tan', 'tanh', 'tensor', 'transpose', 'trunc', 'uint8', 'unsqueeze', 'var', 'where', 'xlogy', 'zeros', 'zeros_like']
class dtype:
    @staticmethod
    def __new__(type, *args, **kwargs):
        """
        Create and return a new object.  See help(type) for accurate signature.
        """
    def __reduce__(self: dtype) -> str:
        ...
    def __repr__(self: dtype) -> str:
        ...
    @property
    def is_complex(self) -> bool:
        ...
    @property
    def is_floating_point(self) -> bool:
        ...
    @property
    def is_signed(self) -> bool:
        ...
    @property
    def itemsize(self) -> int:
        ...
class Tensor:
    is_cuda: typing.ClassVar[bool] = False
    data: Tensor
    requires_grad: bool
    @staticmethod
    def __repr__(t) -> str:
        """
        The ``tensor(...)`` text for ``t``, as PyTorch prints it.
        """
    @staticmethod
    def __str__(t) -> str:
        """
        The ``tensor(...)`` text for ``t``, as PyTorch prints it.
        """
    @staticmethod
    def absolute(*args, **kwargs):
        """
        abs(self: Tensor) -> Tensor
        """
    @staticmethod
    def absolute_(*args, **kwargs):
        """
        abs_(self: Tensor) -> Tensor
        """
    @staticmethod
    def addbmm(input, batch1, batch2, *, beta = 1, alpha = 1):
        """
        ``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``.
        """
    @staticmethod
    def addcdiv(input, tensor1, tensor2, *, value = 1):
        """
        ``input + value * tensor1 / tensor2``, broadcast; integer inputs are refused, as PyTorch.
        """
    @staticmethod
    def addcmul(input, tensor1, tensor2, *, value = 1):
        """
        ``input + value * tensor1 * tensor2``, broadcast.
        """
    @staticmethod
    def addmm(input, mat1, mat2, *, beta = 1, alpha = 1):
        """
        ``beta * input + alpha * (mat1 @ mat2)`` for matrices mat1 (n x m) and mat2 (m x p).
        """
    @staticmethod
    def addmv(input, mat, vec, *, beta = 1, alpha = 1):
        """
        ``beta * input + alpha * (mat @ vec)`` for a matrix and a vector.
        """
    @staticmethod
    def addr(input, vec1, vec2, *, beta = 1, alpha = 1, out = None):
        """
        ``beta * input + alpha * outer(vec1, vec2)``.
        """
    @staticmethod
    def adjoint(input):
        """
        The conjugate transpose of the last two dims (their transpose, for real tensors).
        """
    @staticmethod
    def allclose(input, other, rtol = 1e-05, atol = 1e-08, equal_nan = False):
        """
        True when every element of ``isclose(input, other, ...)`` is.
        """
    @staticmethod
    def aminmax(input, *, dim = None, keepdim = False):
        """
        (min, max) of all elements, or along dim.
        """
    @staticmethod
    def arccos(*args, **kwargs):
        """
        acos(self: Tensor) -> Tensor
        """
    @staticmethod
    def arccos_(*args, **kwargs):
        """
        acos_(self: Tensor) -> Tensor
        """
    @staticmethod
    def arccosh(*args, **kwargs):
        """
        acosh(self: Tensor) -> Tensor
        """
    @staticmethod
    def arcsin(*args, **kwargs):
        """
        asin(self: Tensor) -> Tensor
        """
    @staticmethod
    def arcsin_(*args, **kwargs):
        """
        asin_(self: Tensor) -> Tensor
        """
    @staticmethod
    def arcsinh(*args, **kwargs):
        """
        asinh(self: Tensor) -> Tensor
        """
    @staticmethod
    def arctan(*args, **kwargs):
        """
        atan(self: Tensor) -> Tensor
        """
    @staticmethod
    def arctan2(*args, **kwargs):
        """
        atan2(self: Tensor, other: object) -> Tensor
        """
    @staticmethod
    def arctan2_(*args, **kwargs):
        """
        atan2_(self: Tensor, other: object) -> Tensor
        """
    @staticmethod
    def arctan_(*args, **kwargs):
        """
        atan_(self: Tensor) -> Tensor
        """
    @staticmethod
    def arctanh(*args, **kwargs):
        """
        atanh(self: Tensor) -> Tensor
        """
    @staticmethod
    def argsort(input, dim = -1, descending = False, stable = False):
        """
        The indices that sort input along dim.
        """
    @staticmethod
    def argwhere(input):
        """
        ``nonzero(input)``: one row of indices per nonzero element.
        """
    @staticmethod
    def as_strided_scatter(input, src, size, stride, storage_offset = None):
        """
        input with the elements of ``input.as_strided(size, stride, storage_offset)`` replaced by
            src (positions outside input's own elements are dropped, as in PyTorch).
        """
    @staticmethod
    def baddbmm(input, batch1, batch2, *, beta = 1, alpha = 1):
        """
        ``beta * input + alpha * (batch1 @ batch2)`` over a batch of matrix products.
        """
    @staticmethod
    def bernoulli(input, p = None, *, generator = None, out = None):
        """
        0/1 samples, 1 with probability input (elementwise) or with probability p, in input's dtype.
        """
    @staticmethod
    def bincount(input, weights = None, minlength = 0):
        """
        Occurrences (or summed weights) of each value of a 1-D non-negative integer tensor.
        """
    @staticmethod
    def broadcast_to(input, size):
        ...
    @staticmethod
    def cholesky(*args, out = None, **kwargs):
        """
        ``linalg.cholesky`` with errors named 'cholesky'.
        """
    @staticmethod
    def cholesky_inverse(*args, out = None, **kwargs):
        """
        A^-1 for A = L L^T (U^T U when upper), given the factor.
        """
    @staticmethod
    def cholesky_solve(*args, out = None, **kwargs):
        """
        X with A X = B for A = L L^T (U^T U when upper), given the factor.
        """
    @staticmethod
    def chunk(input, chunks, dim = 0):
        ...
    @staticmethod
    def corrcoef(input):
        """
        Pearson correlation coefficients of the variables in input's rows, clipped to [-1, 1].
        """
    @staticmethod
    def count_nonzero(input, dim = None):
        """
        int64 count of nonzero elements, of all or over dim (an int or a tuple).
        """
    @staticmethod
    def cov(input, *, correction = 1, fweights = None, aweights = None):
        """
        Covariance matrix of the variables in input's rows (observations in columns); a 1-D input is
            one variable. fweights (integer repeat counts) and aweights (float importances) weight the
            observations; ``correction`` is subtracted from the (weighted) observation count.
        """
    @staticmethod
    def cross(*args, out = None, **kwargs):
        """
        The cross product along `dim` (by default the first dim of size 3).
        """
    @staticmethod
    def cummax(input, dim, *, out = None):
        """
        (values, indices) of the running maximum along dim; NaN propagates, ties take the later index.
        """
    @staticmethod
    def cummin(input, dim, *, out = None):
        """
        (values, indices) of the running minimum along dim; NaN propagates, ties take the later index.
        """
    @staticmethod
    def det(input):
        """
        ``linalg.det``.
        """
    @staticmethod
    def diag(input, diagonal = 0):
        ...
    @staticmethod
    def diag_embed(input, offset = 0, dim1 = -2, dim2 = -1):
        """
        A tensor whose (dim1, dim2) diagonals at `offset` hold input's last dim, zeros elsewhere.
        """
    @staticmethod
    def diagflat(input, offset = 0):
        """
        A matrix with input's flattened elements on the diagonal at `offset`.
        """
    @staticmethod
    def diagonal_scatter(input, src, offset = 0, dim1 = 0, dim2 = 1):
        """
        input with its (offset, dim1, dim2) diagonal replaced by src.
        """
    @staticmethod
    def diff(input, n = 1, dim = -1, prepend = None, append = None):
        """
        The n-th forward difference along dim, after joining prepend and append.
        """
    @staticmethod
    def dist(input, other, p = 2):
        """
        p-norm of ``input - other`` (broadcast).
        """
    @staticmethod
    def divide(*args, **kwargs):
        """
        div(self: Tensor, arg0: object) -> Tensor
        """
    @staticmethod
    def divide_(*args, **kwargs):
        """
        div_(self: Tensor, arg0: object) -> Tensor
        """
    @staticmethod
    def dsplit(input, indices_or_sections):
        """
        tensor_split along dim 2 of an input of 3 or more dims; an int must divide the size.
        """
    @staticmethod
    def equal(input, other):
        """
        True when both tensors have the same shape and equal elements (NaN is never equal).
        """
    @staticmethod
    def fix(*args, **kwargs):
        """
        trunc(self: Tensor) -> Tensor
        """
    @staticmethod
    def fix_(*args, **kwargs):
        """
        trunc_(self: Tensor) -> Tensor
        """
    @staticmethod
    def flatten(input, start_dim = 0, end_dim = -1):
        ...
    @staticmethod
    def flip(input, *dims):
        ...
    @staticmethod
    def fliplr(input):
        """
        input with its columns (dim 1) reversed; input needs 2 or more dims.
        """
    @staticmethod
    def float_power(input, exponent):
        """
        ``input ** exponent`` computed in float64 (either may be a Python number).
        """
    @staticmethod
    def geqrf(*args, out = None, **kwargs):
        """
        (a, tau): LAPACK's compact Householder QR (no gradient, as in PyTorch).
        """
    @staticmethod
    def ger(*args, **kwargs):
        """
        outer(self: Tensor, arg0: Tensor) -> Tensor
        """
    @staticmethod
    def greater(*args, **kwargs):
        """
        gt(self: Tensor, arg0: object) -> Tensor
        """
    @staticmethod
    def greater_equal(*args, **kwargs):
        """
        ge(self: Tensor, arg0: object) -> Tensor
        """
    @staticmethod
    def hardshrink(input, lambd = 0.5):
        """
        0 where ``|x| <= lambd``, x elsewhere.
        """
    @staticmethod
    def histc(input, bins = 100, min = 0, max = 0, *, out = None):
        """
        Counts of input in `bins` equal bins over [min, max] (the data's range when both are 0);
            elements outside are ignored. Same dtype as input.
        """
    @staticmethod
    def histogram(input, bins = 100, *, range = None, weight = None, density = False, out = None):
        """
        (hist, bin_edges) of a tensor's values: `bins` equal bins over `range` (the data's range by
            default) or the given increasing edges; optional weights and density normalisation.
        """
    @staticmethod
    def hsplit(input, indices_or_sections):
        """
        tensor_split along dim 1 (dim 0 for 1-D input); an int must divide the size.
        """
    @staticmethod
    def index_fill(input, dim, index, value):
        """
        input with the slices at `index` along dim set to value (a number or 0-d tensor).
        """
    @staticmethod
    def index_put(input, indices, values, accumulate = False):
        """
        input with ``input[indices] = values`` (or ``+=`` with accumulate, duplicates summed).
        """
    @staticmethod
    def index_reduce(input, dim, index, source, reduce, *, include_self = True):
        """
        input with source's slices reduced ('prod', 'mean', 'amax', 'amin') into the slices that
            index names along dim.
        """
    @staticmethod
    def inner(input, other, *, out = None):
        """
        Sum of products over the last dims (a scalar factor if either is 0-d).
        """
    @staticmethod
    def inverse(*args, out = None, **kwargs):
        """
        ``linalg.inv``.
        """
    @staticmethod
    def isclose(input, other, rtol = 1e-05, atol = 1e-08, equal_nan = False):
        """
        Elementwise ``|input - other| <= atol + rtol * |other|`` (exact equality for bools), as a bool
            tensor of the broadcast shape; both inputs must have the same dtype.
        """
    @staticmethod
    def isneginf(input, *, out = None):
        """
        Bool tensor: where input is -inf.
        """
    @staticmethod
    def isposinf(input, *, out = None):
        """
        Bool tensor: where input is +inf.
        """
    @staticmethod
    def isreal(input):
        """
        Bool tensor: where input has no imaginary part (everywhere, for engine's real dtypes).
        """
    @staticmethod
    def kron(input, other):
        """
        The Kronecker product: blocks ``input[i] * other`` laid out over a shape of products.
        """
    @staticmethod
    def kthvalue(input, k, dim = -1, keepdim = False):
        """
        (values, indices) of the k-th smallest element (1-based) along dim.
        """
    @staticmethod
    def ldexp(input, other):
        """
        ``input * 2 ** other``.
        """
    @staticmethod
    def less(*args, **kwargs):
        """
        lt(self: Tensor, arg0: object) -> Tensor
        """
    @staticmethod
    def less_equal(*args, **kwargs):
        """
        le(self: Tensor, arg0: object) -> Tensor
        """
    @staticmethod
    def logcumsumexp(input, dim, *, out = None):
        """
        ``log(cumsum(exp(input), dim))`` computed without overflow.
        """
    @staticmethod
    def logdet(input):
        """
        log(det(input)): nan for a negative determinant, -inf for a singular matrix.
        """
    @staticmethod
    def lu(*args, out = None, **kwargs):
        """
        (LU, pivots) of A, and infos when get_infos.
        """
    @staticmethod
    def lu_solve(*args, out = None, **kwargs):
        """
        ``linalg.lu_solve(LU_data, LU_pivots, b)``.
        """
    @staticmethod
    def masked_fill(input, mask, value):
        ...
    @staticmethod
    def masked_scatter(input, mask, source):
        """
        input with the positions where mask is True filled, in order, by source's leading elements.
        """
    @staticmethod
    def masked_select(input, mask, *, out = None):
        """
        1-D tensor of input's elements where the (broadcast) mask is True, in row-major order.
        """
    @staticmethod
    def matrix_exp(input):
        """
        ``linalg.matrix_exp``.
        """
    @staticmethod
    def matrix_power(input, n):
        """
        ``linalg.matrix_power``.
        """
    @staticmethod
    def median(input, dim = None, keepdim = False):
        """
        The lower median (of all elements, or (values, indices) along dim); NaN if the slice has one.
        """
    @staticmethod
    def mode(input, dim = -1, keepdim = False):
        """
        (values, indices): the most frequent value along dim (the smallest among equally frequent
            ones) and the index of its last occurrence.
        """
    @staticmethod
    def moveaxis(input, source, destination):
        """
        input with the dims in `source` moved to the positions in `destination`, the others kept in
            order.
        """
    @staticmethod
    def movedim(input, source, destination):
        """
        input with the dims in `source` moved to the positions in `destination`, the others kept in
            order.
        """
    @staticmethod
    def msort(input):
        """
        input sorted along its first dim.
        """
    @staticmethod
    def multinomial(input, num_samples, replacement = False, *, generator = None, out = None):
        """
        Indices of num_samples categories drawn per row with probabilities proportional to input.
        """
    @staticmethod
    def multiply(*args, **kwargs):
        """
        mul(self: Tensor, arg0: object) -> Tensor
        """
    @staticmethod
    def multiply_(*args, **kwargs):
        """
        mul_(self: Tensor, arg0: object) -> Tensor
        """
    @staticmethod
    def mvlgamma(input, p):
        """
        The multivariate log-gamma function of dimension ``p``:
            ``p(p-1)/4 log(pi) + sum_{j<p} lgamma(input - j/2)``, elementwise. Like PyTorch 2.13, elements
            at or below (p-1)/2 give lgamma's values at its poles (inf) rather than an error.
        """
    @staticmethod
    def nan_to_num(input, nan = 0.0, posinf = None, neginf = None):
        """
        NaN, +inf and -inf replaced (by 0 and the dtype's largest and lowest finite values).
        """
    @staticmethod
    def nanmean(input, dim = None, keepdim = False, *, dtype = None):
        """
        The mean of the non-NaN elements (NaN where all are NaN).
        """
    @staticmethod
    def nanmedian(input, dim = None, keepdim = False):
        """
        The lower median ignoring NaN (of all elements, or (values, indices) along dim); NaN only
            where a slice is all NaN.
        """
    @staticmethod
    def nanquantile(input, q, dim = None, keepdim = False, *, interpolation = 'linear', out = None):
        """
        quantile ignoring NaN; NaN only where a slice is all NaN.
        """
    @staticmethod
    def nansum(input, dim = None, keepdim = False, *, dtype = None):
        """
        The sum with NaNs counted as zero.
        """
    @staticmethod
    def narrow_copy(input, *args, out = None, **kwargs):
        """
        A fresh contiguous copy of what the view op ``narrow`` returns.
        """
    @staticmethod
    def ndimension(*args, **kwargs):
        """
        dim(self: Tensor) -> int
        """
    @staticmethod
    def negative(*args, **kwargs):
        """
        neg(self: Tensor) -> Tensor
        """
    @staticmethod
    def negative_(*args, **kwargs):
        """
        neg_(self: Tensor) -> Tensor
        """
    @staticmethod
    def nonzero(input, *, out = None, as_tuple = False):
        """
        Indices of the nonzero elements: an (n, ndim) int64 tensor, or one 1-D tensor per dim.
        """
    @staticmethod
    def nonzero_static(input, *, size, fill_value = -1):
        """
        nonzero with exactly `size` rows: truncated, or padded with fill_value.
        """
    @staticmethod
    def norm(input, p = 'fro', dim = None, keepdim = False, out = None, dtype = None):
        """
        torch.norm: the native p-norms, and the nuclear norm of matrices (p='nuc').
        """
    @staticmethod
    def not_equal(*args, **kwargs):
        """
        ne(self: Tensor, arg0: object) -> Tensor
        """
    @staticmethod
    def orgqr(input, tau):
        """
        ``linalg.householder_product``.
        """
    @staticmethod
    def ormqr(*args, out = None, **kwargs):
        """
        op(Q) other (left) or other op(Q), Q the product of the reflectors (input, tau).
        """
    @staticmethod
    def pinverse(input, rcond = 1e-15):
        """
        ``linalg.pinv`` with a relative tolerance.
        """
    @staticmethod
    def positive(input):
        """
        ``input`` itself (refused for bool tensors, as PyTorch's unary ``+``).
        """
    @staticmethod
    def prelu(input, weight):
        """
        x for x > 0, ``weight * x`` otherwise (weight per channel or shared).
        """
    @staticmethod
    def put(input, index, source, accumulate = False):
        """
        input (seen as 1-D) with source written (or added) at the flat positions in index.
        """
    @staticmethod
    def qr(*args, out = None, **kwargs):
        """
        (Q, R): reduced when some, complete otherwise.
        """
    @staticmethod
    def quantile(input, q, dim = None, keepdim = False, *, interpolation = 'linear', out = None):
        """
        The q-th quantiles (q a number or 1-D tensor in [0, 1]) of all elements or along dim, with
            PyTorch's five interpolations; NaN where a slice holds a NaN.
        """
    @staticmethod
    def ravel(input):
        """
        input flattened to 1-D (a view when the layout allows, a contiguous copy otherwise).
        """
    @staticmethod
    def renorm(input, p, dim, maxnorm):
        """
        input with each slice along dim whose p-norm exceeds maxnorm scaled down to norm maxnorm.
        """
    @staticmethod
    def repeat_interleave(input, repeats = None, dim = None, *, output_size = None):
        """
        Each element (or slice along dim) repeated `repeats` times (an int or one count per slice);
            ``repeat_interleave(counts)`` repeats the index i counts[i] times.
        """
    @staticmethod
    def roll(input, shifts, dims = None):
        ...
    @staticmethod
    def rot90(input, k = 1, dims = (0, 1)):
        """
        input rotated by 90 degrees k times in the plane of `dims`, from the first towards the second.
        """
    @staticmethod
    def scatter_reduce(input, dim, index, src, reduce, *, include_self = True):
        """
        input with src's elements reduced ('sum', 'prod', 'mean', 'amax', 'amin') into the
            positions index names along dim; include_self=False leaves input's own values out of the
            reduction wherever something is scattered.
        """
    @staticmethod
    def select_scatter(input, src, dim, index):
        """
        input with ``input.select(dim, index)`` replaced by src.
        """
    @staticmethod
    def slice_scatter(input, src, dim = 0, start = None, end = None, step = 1):
        """
        input with the slice ``start:end:step`` of dim replaced by src.
        """
    @staticmethod
    def slogdet(input):
        """
        ``linalg.slogdet`` under its torch.* result name.
        """
    @staticmethod
    def sort(input, dim = -1, descending = False, stable = False):
        """
        (values, indices) of input sorted along dim; ``stable`` is always honoured.
        """
    @staticmethod
    def split(tensor, split_size_or_sections, dim = 0):
        ...
    @staticmethod
    def split_with_sizes(input, split_sizes, dim = 0):
        """
        Views of input of the given sizes along dim; the sizes must sum to the dim's size.
        """
    @staticmethod
    def square(input):
        """
        ``input * input`` (integers stay integers).
        """
    @staticmethod
    def subtract(*args, **kwargs):
        """
        sub(self: Tensor, other: object, *, alpha: object = 1) -> Tensor
        """
    @staticmethod
    def subtract_(*args, **kwargs):
        """
        sub_(self: Tensor, other: object, *, alpha: object = 1) -> Tensor
        """
    @staticmethod
    def svd(*args, out = None, **kwargs):
        """
        (U, S, V) with input = U diag(S) V^T; without compute_uv, U and V are zero-filled.
        """
    @staticmethod
    def swapaxes(input, axis0, axis1):
        """
        Alias of ``transpose`` with NumPy's argument names.
        """
    @staticmethod
    def swapdims(input, dim0, dim1):
        """
        Alias of ``transpose``.
        """
    @staticmethod
    def take(input, index):
        ...
    @staticmethod
    def take_along_dim(input, indices, dim = None, *, out = None):
        """
        Elements of input picked by indices along dim (broadcast elsewhere), or from the
            flattened input when dim is None.
        """
    @staticmethod
    def tensor_split(input, indices_or_sections, dim = 0):
        """
        Views of input split into `sections` nearly equal parts, or at the given indices, along dim.
        """
    @staticmethod
    def tile(input, dims):
        """
        input repeated along each dim; dims shorter than input.dim() are padded with 1s in front.
        """
    @staticmethod
    def topk(input, k, dim = -1, largest = True, sorted = True):
        """
        (values, indices) of the k largest (or smallest) elements along dim.
        """
    @staticmethod
    def trace(input):
        """
        The sum of a matrix's diagonal (int64 for integer matrices).
        """
    @staticmethod
    def triangular_solve(*args, out = None, **kwargs):
        """
        (solution of op(A) X = b, a copy of A).
        """
    @staticmethod
    def tril(input, diagonal = 0):
        ...
    @staticmethod
    def triu(input, diagonal = 0):
        ...
    @staticmethod
    def true_divide(*args, **kwargs):
        """
        div(self: Tensor, arg0: object) -> Tensor
        """
    @staticmethod
    def true_divide_(*args, **kwargs):
        """
        div_(self: Tensor, arg0: object) -> Tensor
        """
    @staticmethod
    def unbind(input, dim = 0):
        ...
    @staticmethod
    def unflatten(input, dim, sizes):
        ...
    @staticmethod
    def unique(input, sorted = True, return_inverse = False, return_counts = False, dim = None):
        """
        The distinct elements (or slices along dim) in ascending order, with optionally the
            inverse mapping (input's positions into the result) and the counts. NaNs are all distinct.
        """
    @staticmethod
    def unique_consecutive(input, return_inverse = False, return_counts = False, dim = None):
        """
        input with each run of equal consecutive elements (or slices along dim) kept once.
        """
    @staticmethod
    def unsafe_chunk(input, chunks, dim = 0):
        """
        ``chunk``.
        """
    @staticmethod
    def unsafe_split(input, split_size, dim = 0):
        """
        ``split`` (engine's views are always safe to use).
        """
    @staticmethod
    def unsafe_split_with_sizes(input, split_sizes, dim = 0):
        """
        ``split_with_sizes``.
        """
    @staticmethod
    def vdot(input, other, *, out = None):
        """
        Dot product of two 1-D tensors (the first conjugated: the same for real tensors).
        """
    @staticmethod
    def vsplit(input, indices_or_sections):
        """
        tensor_split along dim 0 of an input of 2 or more dims; an int must divide the size.
        """
    @classmethod
    def __new__(cls, *args, **kwargs):
        """
        ``engine.Tensor(*sizes)`` / ``engine.Tensor(data)``: the default dtype's legacy
            constructor. Without arguments (and for subclasses) nothing is created: an instance whose
            native part was never built must not exist.
        """
    @classmethod
    def _make_subclass(cls: typing.Any, data: Tensor, require_grad: bool = False) -> typing.Any:
        ...
    def __abs__(self) -> Tensor:
        ...
    def __add__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __and__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __array__(self, dtype = None, copy = None):
        ...
    def __bool__(self) -> bool:
        ...
    def __contains__(self, element):
        ...
    def __deepcopy__(self, memo):
        ...
    def __eq__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __float__(self) -> float:
        ...
    def __floordiv__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __format__(self, spec):
        ...
    def __ge__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __getitem__(self, key):
        ...
    def __gt__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __hash__(self) -> int:
        ...
    def __iadd__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __iand__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __ifloordiv__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __ilshift__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __imod__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __imul__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, *args, **kwargs):
        """
        The tensor was complete when ``__new__`` returned it.
        """
    def __int__(self) -> int:
        ...
    def __invert__(self) -> Tensor:
        ...
    def __ior__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __irshift__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __isub__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __iter__(self):
        ...
    def __itruediv__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __ixor__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __le__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __len__(self) -> int:
        ...
    def __lshift__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __lt__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __matmul__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __mod__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __mul__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __ne__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __neg__(self) -> Tensor:
        ...
    def __or__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __pos__(self) -> Tensor:
        ...
    def __pow__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __radd__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rand__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __reduce_ex__(self, protocol):
        ...
    def __rfloordiv__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rlshift__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rmatmul__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rmod__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rmul__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __ror__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rpow__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rrshift__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rshift__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rsub__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rtruediv__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rxor__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __setitem__(self, key, value):
        ...
    def __sub__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __truediv__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __xor__(self, arg0: typing.Any) -> typing.Any:
        ...
    def _edge_list(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> typing.Any:
        ...
    def _is_view(self) -> bool:
        ...
    def _special_i1(self) -> Tensor:
        ...
    def abs(self) -> Tensor:
        ...
    def abs_(self) -> Tensor:
        ...
    def acos(self) -> Tensor:
        ...
    def acos_(self) -> Tensor:
        ...
    def acosh(self) -> Tensor:
        ...
    def acosh_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.acosh`.
        """
    def add(self, other: typing.Any, *, alpha: typing.Any = 1) -> Tensor:
        ...
    def add_(self, other: typing.Any, *, alpha: typing.Any = 1) -> Tensor:
        ...
    def addbmm_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.addbmm`.
        """
    def addcdiv_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.addcdiv`.
        """
    def addcmul_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.addcmul`.
        """
    def addmm_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.addmm`.
        """
    def addmv_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.addmv`.
        """
    def addr_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.addr`.
        """
    def all(self, dim: typing.Any = None, keepdim: bool = False) -> Tensor:
        ...
    def amax(self, dim: typing.Any = (), keepdim: bool = False) -> Tensor:
        ...
    def amin(self, dim: typing.Any = (), keepdim: bool = False) -> Tensor:
        ...
    def any(self, dim: typing.Any = None, keepdim: bool = False) -> Tensor:
        ...
    def apply_(self, callable):
        """
        Replaces each element x by callable(x) (a Python call per element, as in PyTorch).
        """
    def arccosh_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.acosh`.
        """
    def arcsinh_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.asinh`.
        """
    def arctanh_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.atanh`.
        """
    def argmax(self, dim: typing.SupportsInt | typing.SupportsIndex | None = None, keepdim: bool = False) -> Tensor:
        ...
    def argmin(self, dim: typing.SupportsInt | typing.SupportsIndex | None = None, keepdim: bool = False) -> Tensor:
        ...
    def as_subclass(self, cls):
        """
        self's data (shared) as an instance of the Tensor subclass cls.
        """
    def asin(self) -> Tensor:
        ...
    def asin_(self) -> Tensor:
        ...
    def asinh(self) -> Tensor:
        ...
    def asinh_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.asinh`.
        """
    def atan(self) -> Tensor:
        ...
    def atan2(self, other: typing.Any) -> Tensor:
        ...
    def atan2_(self, other: typing.Any) -> Tensor:
        ...
    def atan_(self) -> Tensor:
        ...
    def atanh(self) -> Tensor:
        ...
    def atanh_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.atanh`.
        """
    def backward(self, gradient: typing.Any = None, retain_graph: typing.Any = None, create_graph: bool = False, inputs: typing.Any = None) -> None:
        """
        Computes the gradient of this tensor w.r.t. the graph leaves (see ``engine.autograd.backward``).
        """
    def baddbmm_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.baddbmm`.
        """
    def bernoulli_(self, p = 0.5, *, generator = None):
        """
        Fills self with 0/1 samples, 1 with probability p (a number or a broadcastable tensor).
        """
    def bfloat16(self) -> Tensor:
        ...
    def bitwise_and(self, other: typing.Any) -> Tensor:
        ...
    def bitwise_and_(self, other: typing.Any) -> Tensor:
        ...
    def bitwise_left_shift(self, other: typing.Any) -> Tensor:
        ...
    def bitwise_left_shift_(self, other: typing.Any) -> Tensor:
        ...
    def bitwise_not(self) -> Tensor:
        ...
    def bitwise_not_(self) -> Tensor:
        ...
    def bitwise_or(self, other: typing.Any) -> Tensor:
        ...
    def bitwise_or_(self, other: typing.Any) -> Tensor:
        ...
    def bitwise_right_shift(self, other: typing.Any) -> Tensor:
        ...
    def bitwise_right_shift_(self, other: typing.Any) -> Tensor:
        ...
    def bitwise_xor(self, other: typing.Any) -> Tensor:
        ...
    def bitwise_xor_(self, other: typing.Any) -> Tensor:
        ...
    def bmm(self, arg0: Tensor) -> Tensor:
        ...
    def bool(self) -> Tensor:
        ...
    def byte(self) -> Tensor:
        ...
    def cauchy_(self, median = 0.0, sigma = 1.0, *, generator = None):
        """
        Fills self with Cauchy(median, sigma) samples: ``median + sigma * tan(pi (u - 1/2))``.
        """
    def ceil(self) -> Tensor:
        ...
    def ceil_(self) -> Tensor:
        ...
    def char(self) -> Tensor:
        ...
    def clamp(self, min: typing.Any = None, max: typing.Any = None) -> Tensor:
        ...
    def clamp_(self, min: typing.Any = None, max: typing.Any = None) -> Tensor:
        ...
    def clamp_max(self, arg0: typing.Any) -> Tensor:
        ...
    def clamp_max_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.clamp_max`.
        """
    def clamp_min(self, arg0: typing.Any) -> Tensor:
        ...
    def clamp_min_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.clamp_min`.
        """
    def clip(self, min: typing.Any = None, max: typing.Any = None) -> Tensor:
        ...
    def clip_(self, min: typing.Any = None, max: typing.Any = None) -> Tensor:
        ...
    def clone(self) -> Tensor:
        ...
    def const_data_ptr(self):
        """
        The address of the first element (``data_ptr``).
        """
    def contiguous(self) -> Tensor:
        ...
    def copy_(self, arg0: Tensor) -> Tensor:
        ...
    def copysign(self, other: typing.Any) -> Tensor:
        ...
    def copysign_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.copysign`.
        """
    def cos(self) -> Tensor:
        ...
    def cos_(self) -> Tensor:
        ...
    def cosh(self) -> Tensor:
        ...
    def cosh_(self) -> Tensor:
        ...
    def cpu(self) -> Tensor:
        ...
    def cuda(self, device = None, non_blocking = False, memory_format = None):
        ...
    def cumprod(self, dim: typing.SupportsInt | typing.SupportsIndex, *, dtype: typing.Any = None) -> Tensor:
        ...
    def cumprod_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.cumprod`.
        """
    def cumsum(self, dim: typing.SupportsInt | typing.SupportsIndex, *, dtype: typing.Any = None) -> Tensor:
        ...
    def cumsum_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.cumsum`.
        """
    def data_ptr(self) -> int:
        ...
    def deg2rad(self) -> Tensor:
        ...
    def deg2rad_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.deg2rad`.
        """
    def detach(self) -> Tensor:
        ...
    def detach_(self) -> Tensor:
        ...
    def diagonal(self, offset: typing.SupportsInt | typing.SupportsIndex = 0, dim1: typing.SupportsInt | typing.SupportsIndex = 0, dim2: typing.SupportsInt | typing.SupportsIndex = 1) -> Tensor:
        ...
    def digamma(self) -> Tensor:
        ...
    def digamma_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.digamma`.
        """
    def dim(self) -> int:
        ...
    def dim_order(self, *, ambiguity_check = False):
        """
        The dims from outermost to innermost in memory (by decreasing stride; ties keep dim order).
        """
    def div(self, arg0: typing.Any) -> Tensor:
        ...
    def div_(self, arg0: typing.Any) -> Tensor:
        ...
    def dot(self, arg0: Tensor) -> Tensor:
        ...
    def double(self) -> Tensor:
        ...
    def element_size(self) -> int:
        ...
    def eq(self, arg0: typing.Any) -> Tensor:
        ...
    def eq_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.eq`.
        """
    def erf(self) -> Tensor:
        ...
    def erf_(self) -> Tensor:
        ...
    def erfc(self) -> Tensor:
        ...
    def erfc_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.erfc`.
        """
    def erfinv(self) -> Tensor:
        ...
    def erfinv_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.erfinv`.
        """
    def exp(self) -> Tensor:
        ...
    def exp2(self) -> Tensor:
        ...
    def exp2_(self) -> Tensor:
        ...
    def exp_(self) -> Tensor:
        ...
    def expand(self, *args) -> Tensor:
        ...
    def expand_as(self, arg0: Tensor) -> Tensor:
        ...
    def expm1(self) -> Tensor:
        ...
    def expm1_(self) -> Tensor:
        ...
    def exponential_(self, lambd = 1.0, *, generator = None):
        """
        Fills self with Exponential(lambd) samples: ``-1 / lambd * log1p(-u)``.
        """
    def fill_(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> Tensor:
        ...
    def fill_diagonal_(self, fill_value, wrap = False):
        """
        Fills the main diagonal (all dims equal, or a tall/wide matrix) in place; with wrap, a
            tall matrix's diagonal restarts every ncols + 1 rows.
        """
    def float(self) -> Tensor:
        ...
    def float_power_(self, exponent):
        """
        In-place ``float_power``: self must already be float64, as in PyTorch.
        """
    def floor(self) -> Tensor:
        ...
    def floor_(self) -> Tensor:
        ...
    def floor_divide(self, other: typing.Any) -> Tensor:
        ...
    def floor_divide_(self, other: typing.Any) -> Tensor:
        ...
    def fmax(self, other: typing.Any) -> Tensor:
        ...
    def fmin(self, other: typing.Any) -> Tensor:
        ...
    def fmod(self, other: typing.Any) -> Tensor:
        ...
    def fmod_(self, other: typing.Any) -> Tensor:
        ...
    def frac(self) -> Tensor:
        ...
    def frac_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.frac`.
        """
    def frexp(self) -> typing.Any:
        ...
    def gather(self, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor) -> Tensor:
        ...
    def gcd(self, other: typing.Any) -> Tensor:
        ...
    def gcd_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.gcd`.
        """
    def ge(self, arg0: typing.Any) -> Tensor:
        ...
    def ge_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.ge`.
        """
    def geometric_(self, p, *, generator = None):
        """
        Fills self with Geometric(p) samples (trials until the first success): ``ceil(log u / log1p(-p))``.
        """
    def greater_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.gt`.
        """
    def greater_equal_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.ge`.
        """
    def gt(self, arg0: typing.Any) -> Tensor:
        ...
    def gt_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.gt`.
        """
    def half(self) -> Tensor:
        ...
    def heaviside(self, values: typing.Any) -> Tensor:
        ...
    def heaviside_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.heaviside`.
        """
    def hypot(self, other: typing.Any) -> Tensor:
        ...
    def hypot_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.hypot`.
        """
    def i0(self) -> Tensor:
        ...
    def i0_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.i0`.
        """
    def igamma(self, other: typing.Any) -> Tensor:
        ...
    def igamma_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.igamma`.
        """
    def igammac(self, other: typing.Any) -> Tensor:
        ...
    def igammac_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.igammac`.
        """
    def index_add(self, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor, source: Tensor, *, alpha: typing.SupportsFloat | typing.SupportsIndex = 1.0) -> Tensor:
        ...
    def index_add_(self, *args, **kwargs):
        ...
    def index_copy(self, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor, source: Tensor) -> Tensor:
        ...
    def index_copy_(self, *args, **kwargs):
        ...
    def index_fill_(self, *args, **kwargs):
        """
        In-place ``index_fill``: writes the result into self.
        """
    def index_put_(self, *args, **kwargs):
        """
        In-place ``index_put``: writes the result into self.
        """
    def index_reduce_(self, *args, **kwargs):
        """
        In-place ``index_reduce``: writes the result into self.
        """
    def index_select(self, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor) -> Tensor:
        ...
    def int(self) -> Tensor:
        ...
    def is_contiguous(self) -> bool:
        ...
    def is_floating_point(self) -> bool:
        ...
    def is_inference(self):
        """
        True for an inference tensor: one allocated inside ``inference_mode()`` (or a view of
            one).
        """
    def is_nonzero(self):
        """
        The truth of a one-element tensor.
        """
    def is_same_size(self, other):
        """
        Whether self and other have the same shape.
        """
    def is_signed(self):
        """
        Whether the tensor's dtype is signed (False for bool and uint8).
        """
    def isfinite(self) -> Tensor:
        ...
    def isinf(self) -> Tensor:
        ...
    def isnan(self) -> Tensor:
        ...
    def item(self) -> typing.Any:
        ...
    def lcm(self, other: typing.Any) -> Tensor:
        ...
    def lcm_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.lcm`.
        """
    def ldexp_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.ldexp`.
        """
    def le(self, arg0: typing.Any) -> Tensor:
        ...
    def le_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.le`.
        """
    def lerp(self, end: Tensor, weight: typing.Any) -> Tensor:
        ...
    def lerp_(self, end: Tensor, weight: typing.Any) -> Tensor:
        ...
    def less_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.lt`.
        """
    def less_equal_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.le`.
        """
    def lgamma(self) -> Tensor:
        ...
    def lgamma_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.lgamma`.
        """
    def log(self) -> Tensor:
        ...
    def log10(self) -> Tensor:
        ...
    def log10_(self) -> Tensor:
        ...
    def log1p(self) -> Tensor:
        ...
    def log1p_(self) -> Tensor:
        ...
    def log2(self) -> Tensor:
        ...
    def log2_(self) -> Tensor:
        ...
    def log_(self) -> Tensor:
        ...
    def log_normal_(self, mean = 1.0, std = 2.0, *, generator = None):
        """
        Fills self with samples whose logarithm is Normal(mean, std).
        """
    def log_softmax(self, dim, dtype = None):
        """
        ``log_softmax`` along dim.
        """
    def logaddexp(self, other: typing.Any) -> Tensor:
        ...
    def logaddexp2(self, other: typing.Any) -> Tensor:
        ...
    def logical_and(self, other: typing.Any) -> Tensor:
        ...
    def logical_and_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.logical_and`.
        """
    def logical_not(self) -> Tensor:
        ...
    def logical_not_(self) -> Tensor:
        ...
    def logical_or(self, other: typing.Any) -> Tensor:
        ...
    def logical_or_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.logical_or`.
        """
    def logical_xor(self, other: typing.Any) -> Tensor:
        ...
    def logical_xor_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.logical_xor`.
        """
    def logit(self, eps: typing.SupportsFloat | typing.SupportsIndex | None = None) -> Tensor:
        ...
    def logit_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.logit`.
        """
    def logsumexp(self, dim: typing.Any = None, keepdim: bool = False) -> Tensor:
        ...
    def long(self) -> Tensor:
        ...
    def lt(self, arg0: typing.Any) -> Tensor:
        ...
    def lt_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.lt`.
        """
    def map2_(self, x, y, callable):
        """
        Replaces each element a by callable(a, b, c), b and c the matching elements of x and y.
        """
    def map_(self, tensor, callable):
        """
        Replaces each element x by callable(x, y), y the matching element of tensor (broadcast).
        """
    def masked_fill_(self, *args, **kwargs):
        ...
    def masked_scatter_(self, *args, **kwargs):
        """
        In-place ``masked_scatter``: writes the result into self.
        """
    def matmul(self, arg0: Tensor) -> Tensor:
        ...
    def max(self, dim: typing.Any = None, keepdim: bool = False) -> typing.Any:
        ...
    def maximum(self, arg0: typing.Any) -> Tensor:
        ...
    def maximum_(self, other: typing.Any) -> Tensor:
        ...
    def mean(self, dim: typing.Any = None, keepdim: bool = False, *, dtype: typing.Any = None) -> Tensor:
        ...
    def min(self, dim: typing.Any = None, keepdim: bool = False) -> typing.Any:
        ...
    def minimum(self, arg0: typing.Any) -> Tensor:
        ...
    def minimum_(self, other: typing.Any) -> Tensor:
        ...
    def mm(self, arg0: Tensor) -> Tensor:
        ...
    def mul(self, arg0: typing.Any) -> Tensor:
        ...
    def mul_(self, arg0: typing.Any) -> Tensor:
        ...
    def mv(self, arg0: Tensor) -> Tensor:
        ...
    def mvlgamma_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.mvlgamma`.
        """
    def nan_to_num_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.nan_to_num`.
        """
    def narrow(self, dim: typing.SupportsInt | typing.SupportsIndex, start: typing.SupportsInt | typing.SupportsIndex, length: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
        ...
    def ne(self, arg0: typing.Any) -> Tensor:
        ...
    def ne_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.ne`.
        """
    def neg(self) -> Tensor:
        ...
    def neg_(self) -> Tensor:
        ...
    def nelement(self) -> int:
        ...
    def new(self, *args, **kwargs):
        """
        Legacy constructor of self's dtype: ``new()`` empty, ``new(2, 3)`` / ``new(Size)``
            uninitialised of that shape, ``new(data)`` from a sequence or tensor.
        """
    def new_empty(self, *size, dtype = None, device = None, requires_grad = False, **kwargs):
        """
        An uninitialised tensor of the given size, with self's dtype unless given.
        """
    def new_empty_strided(self, size, stride, *, dtype = None, device = None, requires_grad = False, **kwargs):
        """
        ``empty_strided`` with self's dtype unless dtype is given.
        """
    def new_full(self, size, fill_value, *, dtype = None, device = None, requires_grad = False, **kwargs):
        """
        A tensor of the given size filled with fill_value, with self's dtype unless given.
        """
    def new_ones(self, *size, dtype = None, device = None, requires_grad = False, **kwargs):
        """
        Ones of the given size, with self's dtype unless given.
        """
    def new_tensor(self, data, *, dtype = None, device = None, requires_grad = False):
        """
        A new tensor of `data`, with self's dtype unless given.
        """
    def new_zeros(self, *size, dtype = None, device = None, requires_grad = False, **kwargs):
        """
        Zeros of the given size, with self's dtype unless given.
        """
    def nextafter(self, other: typing.Any) -> Tensor:
        ...
    def nextafter_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.nextafter`.
        """
    def normal_(self, mean: typing.SupportsFloat | typing.SupportsIndex = 0.0, std: typing.SupportsFloat | typing.SupportsIndex = 1.0, *, generator: typing.Any = None) -> Tensor:
        ...
    def not_equal_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.ne`.
        """
    def numel(self) -> int:
        ...
    def numpy(self, force: bool = False) -> numpy.ndarray:
        ...
    def outer(self, arg0: Tensor) -> Tensor:
        ...
    def permute(self, *args) -> Tensor:
        ...
    def polygamma(self, n: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
        ...
    def polygamma_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.polygamma`.
        """
    def pow(self, arg0: typing.Any) -> Tensor:
        ...
    def pow_(self, exponent: typing.Any) -> Tensor:
        ...
    def prod(self, dim: typing.Any = None, keepdim: bool = False, *, dtype: typing.Any = None) -> Tensor:
        ...
    def put_(self, *args, **kwargs):
        """
        In-place ``put``: writes the result into self.
        """
    def rad2deg(self) -> Tensor:
        ...
    def rad2deg_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.rad2deg`.
        """
    def random_(self, from_ = 0, to = None, *, generator = None, **kwargs):
        """
        Fills self with integers uniform on [from, to - 1] (``random_(to)`` means [0, to - 1];
            no bounds: [0, 2**mantissa] for floats, [0, max] for integers).
        """
    def reciprocal(self) -> Tensor:
        ...
    def reciprocal_(self) -> Tensor:
        ...
    def register_hook(self, hook):
        """
        Registers ``hook(grad)``, run when this tensor's gradient is computed; may return a new
            one.
        """
    def register_post_accumulate_grad_hook(self, hook):
        """
        Registers ``hook(tensor)``, run after the gradient was accumulated into this leaf's
            ``.grad``.
        """
    def relu(self) -> Tensor:
        ...
    def relu_(self) -> Tensor:
        ...
    def remainder(self, other: typing.Any) -> Tensor:
        ...
    def remainder_(self, other: typing.Any) -> Tensor:
        ...
    def renorm_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.renorm`.
        """
    def repeat(self, *sizes):
        ...
    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        ...
    def reshape(self, *args) -> Tensor:
        ...
    def reshape_as(self, arg0: Tensor) -> Tensor:
        ...
    def resize(self, *sizes):
        """
        Deprecated non-in-place resize: self reshaped to `sizes` (same number of elements).
        """
    def resize_(self, *sizes, memory_format = None):
        """
        Gives self the shape `sizes`, keeping its first elements in row-major order (new
            elements, when it grows, are uninitialised). Views of self keep the old memory.
        """
    def resize_as(self, tensor):
        """
        Deprecated non-in-place resize_as.
        """
    def resize_as_(self, the_template, *, memory_format = None):
        """
        ``resize_`` to the_template's shape.
        """
    def retain_grad(self) -> None:
        ...
    def round(self, *, decimals: typing.SupportsInt | typing.SupportsIndex = 0) -> Tensor:
        ...
    def round_(self, *, decimals: typing.SupportsInt | typing.SupportsIndex = 0) -> Tensor:
        ...
    def rsqrt(self) -> Tensor:
        ...
    def rsqrt_(self) -> Tensor:
        ...
    def scatter(self, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor, src: typing.Any) -> Tensor:
        ...
    def scatter_(self, *args, **kwargs):
        ...
    def scatter_add(self, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor, src: Tensor) -> Tensor:
        ...
    def scatter_add_(self, *args, **kwargs):
        ...
    def scatter_reduce_(self, *args, **kwargs):
        """
        In-place ``scatter_reduce``: writes the result into self.
        """
    def select(self, dim: typing.SupportsInt | typing.SupportsIndex, index: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
        ...
    def short(self) -> Tensor:
        ...
    def sigmoid(self) -> Tensor:
        ...
    def sigmoid_(self) -> Tensor:
        ...
    def sign(self) -> Tensor:
        ...
    def sign_(self) -> Tensor:
        ...
    def signbit(self) -> Tensor:
        ...
    def sin(self) -> Tensor:
        ...
    def sin_(self) -> Tensor:
        ...
    def sinc(self) -> Tensor:
        ...
    def sinc_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.sinc`.
        """
    def sinh(self) -> Tensor:
        ...
    def sinh_(self) -> Tensor:
        ...
    def size(self, dim = None):
        ...
    def softmax(self, dim, dtype = None):
        """
        ``softmax`` along dim.
        """
    def sqrt(self) -> Tensor:
        ...
    def sqrt_(self) -> Tensor:
        ...
    def square_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.square`.
        """
    def squeeze(self, dim: typing.SupportsInt | typing.SupportsIndex | None = None) -> Tensor:
        ...
    def squeeze_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.squeeze`: self becomes the view.
        """
    def std(self, dim: typing.Any = None, unbiased: typing.Any = None, keepdim: bool = False, *, correction: typing.Any = None) -> Tensor:
        ...
    def stride(self, dim: typing.Any = None) -> typing.Any:
        ...
    def sub(self, other: typing.Any, *, alpha: typing.Any = 1) -> Tensor:
        ...
    def sub_(self, other: typing.Any, *, alpha: typing.Any = 1) -> Tensor:
        ...
    def sum(self, dim: typing.Any = None, keepdim: bool = False, *, dtype: typing.Any = None) -> Tensor:
        ...
    def sum_to_size(self, *size):
        """
        self summed over the dims it was broadcast along from `size`.
        """
    def swapaxes_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.swapaxes`: self becomes the view.
        """
    def swapdims_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.swapdims`: self becomes the view.
        """
    def t(self) -> Tensor:
        ...
    def t_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.t`: self becomes the view.
        """
    def tan(self) -> Tensor:
        ...
    def tan_(self) -> Tensor:
        ...
    def tanh(self) -> Tensor:
        ...
    def tanh_(self) -> Tensor:
        ...
    def to(self, *args, **kwargs) -> Tensor:
        ...
    def tolist(self) -> typing.Any:
        ...
    def transpose(self, arg0: typing.SupportsInt | typing.SupportsIndex, arg1: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
        ...
    def transpose_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.transpose`: self becomes the view.
        """
    def tril_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.tril`.
        """
    def triu_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.triu`.
        """
    def trunc(self) -> Tensor:
        ...
    def trunc_(self) -> Tensor:
        ...
    def type(self, dtype = None, non_blocking = False, **kwargs):
        """
        With no dtype, the legacy type name ('torch.FloatTensor'); otherwise this tensor as
            ``dtype`` (a dtype, a legacy class or its name), itself when nothing changes.
        """
    def type_as(self, arg0: Tensor) -> Tensor:
        ...
    def unfold(self, dimension: typing.SupportsInt | typing.SupportsIndex, size: typing.SupportsInt | typing.SupportsIndex, step: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
        ...
    def uniform_(self, from_: typing.SupportsFloat | typing.SupportsIndex = 0.0, to: typing.SupportsFloat | typing.SupportsIndex = 1.0, *, generator: typing.Any = None) -> Tensor:
        ...
    def unsqueeze(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
        ...
    def unsqueeze_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.unsqueeze`: self becomes the view.
        """
    def var(self, dim: typing.Any = None, unbiased: typing.Any = None, keepdim: bool = False, *, correction: typing.Any = None) -> Tensor:
        ...
    def view(self, *args) -> Tensor:
        ...
    def view_as(self, arg0: Tensor) -> Tensor:
        ...
    def where(self, arg0: Tensor, arg1: typing.Any) -> Tensor:
        ...
    def xlogy(self, other: typing.Any) -> Tensor:
        ...
    def xlogy_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.xlogy`.
        """
    def zero_(self) -> Tensor:
        ...
    @property
    def H(self):
        ...
    @property
    def T(self):
        ...
    @property
    def _base(self) -> Tensor:
        ...
    @property
    def _shape(self) -> tuple:
        ...
    @property
    def _version(self) -> int:
        ...
    @property
    def device(self):
        """
        The device the tensor lives on: always the CPU.
        """
    @property
    def dtype(self) -> typing.Any:
        ...
    @property
    def grad(self) -> Tensor:
        ...
    @grad.setter
    def grad(self, arg1: typing.Any) -> None:
        ...
    @property
    def grad_fn(self) -> typing.Any:
        ...
    @property
    def is_cpu(self):
        ...
    @property
    def is_leaf(self) -> bool:
        ...
    @property
    def itemsize(self):
        """
        Bytes per element.
        """
    @property
    def layout(self):
        ...
    @property
    def mH(self):
        ...
    @property
    def mT(self):
        ...
    @property
    def nbytes(self):
        """
        Bytes of the tensor's elements.
        """
    @property
    def ndim(self) -> int:
        ...
    @property
    def output_nr(self) -> int:
        ...
    @property
    def retains_grad(self) -> bool:
        ...
    @property
    def shape(self):
        ...
class Node:
    @staticmethod
    def __new__(type, *args, **kwargs):
        """
        Create and return a new object.  See help(type) for accurate signature.
        """
    def __call__(self, *args) -> typing.Any:
        ...
    def __getattr__(self, arg0: str) -> typing.Any:
        ...
    def __reduce_ex__(self, protocol):
        ...
    def __repr__(self) -> str:
        ...
    def name(self) -> str:
        ...
    def register_hook(self, hook):
        """
        Registers ``hook(grad_inputs, grad_outputs)``, run after this node; may return new
            grad_inputs.
        """
    def register_prehook(self, hook):
        """
        Registers ``hook(grad_outputs)``, run before this node; may return new grad_outputs.
        """
    @property
    def metadata(self) -> typing.Any:
        """
        A dict for the user's data about this node (torch.autograd.graph.Node.metadata).
        """
    @property
    def next_functions(self) -> tuple:
        ...
    @property
    def variable(self) -> typing.Any:
        ...
class SavedTensor:
    @staticmethod
    def __new__(type, *args, **kwargs):
        """
        Create and return a new object.  See help(type) for accurate signature.
        """
    def register_hooks(self, pack_hook: typing.Any, unpack_hook: typing.Any) -> None:
        """
        Packs this saved tensor with pack_hook now; backward reads it back through unpack_hook.
        """
class _FunctionInfo:
    @staticmethod
    def __new__(type, *args, **kwargs):
        """
        Create and return a new object.  See help(type) for accurate signature.
        """
    def __init__(self, arg0: typing.Any, arg1: typing.Any, arg2: typing.Any, arg3: str, arg4: bool, arg5: typing.SupportsInt | typing.SupportsIndex, arg6: tuple, arg7: typing.Any) -> None:
        ...
class _FunctionCtx:
    @staticmethod
    def __new__(type, *args, **kwargs):
        """
        Create and return a new object.  See help(type) for accurate signature.
        """
    def __init__(self) -> None:
        ...
    def __reduce_ex__(self, protocol):
        ...
    def mark_dirty(self, *args) -> None:
        ...
    def mark_non_differentiable(self, *args) -> None:
        ...
    def save_for_backward(self, *args) -> None:
        ...
    def set_materialize_grads(self, arg0: bool) -> None:
        ...
    @property
    def needs_input_grad(self) -> tuple:
        ...
    @property
    def next_functions(self) -> tuple:
        ...
    @property
    def saved_tensors(self) -> tuple:
        ...
class _CtxTensorAttr:
    @staticmethod
    def __new__(type, *args, **kwargs):
        """
        Create and return a new object.  See help(type) for accurate signature.
        """
    def __delete__(self, arg0: typing.Any) -> None:
        ...
    def __get__(self, arg0: typing.Any, arg1: typing.Any) -> typing.Any:
        ...
    def __set__(self, arg0: typing.Any, arg1: typing.Any) -> None:
        ...
class Generator:
    @staticmethod
    def __new__(type, *args, **kwargs):
        """
        Create and return a new object.  See help(type) for accurate signature.
        """
    def __init__(self, device: typing.Any = None) -> None:
        ...
    def __reduce_ex__(self, protocol):
        ...
    def initial_seed(self) -> int:
        ...
    def manual_seed(self, arg0: int) -> typing.Any:
        ...
def _adaptive_avg_pool(input: Tensor, output_size: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> Tensor:
    ...
def _adaptive_max_pool(input: Tensor, output_size: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> tuple[Tensor, Tensor]:
    ...
def _avg_pool(input: Tensor, kernel_size: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], stride: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], padding: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], ceil_mode: bool, count_include_pad: bool, divisor_override: typing.SupportsInt | typing.SupportsIndex | None) -> Tensor:
    ...
def _cached_bytes() -> int:
    """
    Bytes of large buffers held idle by the caching allocator.
    """
def _col2im(input: Tensor, output_size: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], kernel_size: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], dilation: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], padding: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], stride: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> Tensor:
    ...
def _current_graph_task_id() -> int:
    ...
def _function_apply(arg0: typing.Any, *args, **kwargs) -> typing.Any:
    ...
def _gradient_edge(arg0: Tensor) -> tuple[typing.Any, int]:
    ...
def _im2col(input: Tensor, kernel_size: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], dilation: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], padding: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], stride: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> Tensor:
    ...
def _increment_version(arg0: typing.Any) -> None:
    ...
def _inplace_apply(self: Tensor, fn: collections.abc.Callable, others: collections.abc.Sequence[Tensor]) -> Tensor:
    ...
def _lapack_available() -> bool:
    """
    Whether this build links a LAPACK.
    """
def _lapack_cholesky(A: Tensor, upper: bool) -> tuple[Tensor, Tensor]:
    """
    (factor, info) of potrf.
    """
def _lapack_eigh(A: Tensor, upper: bool, vectors: bool) -> tuple[Tensor, Tensor, Tensor]:
    """
    (eigenvalues, eigenvectors, info) of syevd.
    """
def _lapack_geqrf(A: Tensor) -> tuple[Tensor, Tensor]:
    """
    (a, tau) of geqrf.
    """
def _lapack_lstsq(A: Tensor, B: Tensor, rcond: typing.SupportsFloat | typing.SupportsIndex, driver: str) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """
    (solution, rank, singular_values, info) of gelsy / gelsd / gelss / gels.
    """
def _lapack_lu_factor(A: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    """
    (LU, pivots, info) of getrf.
    """
def _lapack_lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, transpose: bool) -> Tensor:
    """
    X with op(A) X = B from getrf's factors (getrs).
    """
def _lapack_orgqr(A: Tensor, tau: Tensor) -> Tensor:
    """
    Q's first columns (orgqr).
    """
def _lapack_ormqr(A: Tensor, tau: Tensor, C: Tensor, left: bool, transpose: bool) -> Tensor:
    """
    op(Q) C or C op(Q) (ormqr).
    """
def _lapack_svd(A: Tensor, full_matrices: bool, compute_uv: bool) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """
    (U, S, Vh, info) of gesdd.
    """
def _lapack_triangular_solve(A: Tensor, B: Tensor, upper: bool, left: bool, transpose: bool, unitriangular: bool) -> Tensor:
    """
    op(A)^-1 B or B op(A)^-1 (trsm).
    """
def _linalg_write_out(out: typing.Any, result: Tensor, inputs: collections.abc.Sequence[Tensor], fname: str) -> typing.Any:
    """
    Writes result into out (resized if needed) after PyTorch's out= checks; returns out.
    """
def _mark_multi_output_views(arg0: collections.abc.Sequence[Tensor], arg1: str) -> None:
    ...
def _max_pool(input: Tensor, kernel_size: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], stride: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], padding: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], dilation: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], ceil_mode: bool) -> tuple[Tensor, Tensor]:
    ...
def _normal_cdf(arg0: Tensor) -> Tensor:
    ...
def _once_differentiable_wrap(arg0: typing.Any, *args) -> typing.Any:
    ...
def _optim_adadelta(params: collections.abc.Sequence[Tensor], grads: collections.abc.Sequence[Tensor], square_avgs: collections.abc.Sequence[Tensor], acc_deltas: collections.abc.Sequence[Tensor], steps: collections.abc.Sequence[Tensor], *, lr: typing.SupportsFloat | typing.SupportsIndex, rho: typing.SupportsFloat | typing.SupportsIndex, eps: typing.SupportsFloat | typing.SupportsIndex, weight_decay: typing.SupportsFloat | typing.SupportsIndex, maximize: bool) -> None:
    """
    Adadelta step.
    """
def _optim_adagrad(params: collections.abc.Sequence[Tensor], grads: collections.abc.Sequence[Tensor], state_sums: collections.abc.Sequence[Tensor], steps: collections.abc.Sequence[Tensor], *, lr: typing.SupportsFloat | typing.SupportsIndex, lr_decay: typing.SupportsFloat | typing.SupportsIndex, weight_decay: typing.SupportsFloat | typing.SupportsIndex, eps: typing.SupportsFloat | typing.SupportsIndex, maximize: bool) -> None:
    """
    Adagrad step.
    """
def _optim_adam(params: collections.abc.Sequence[Tensor], grads: collections.abc.Sequence[Tensor], exp_avgs: collections.abc.Sequence[Tensor], exp_avg_sqs: collections.abc.Sequence[Tensor], max_exp_avg_sqs: collections.abc.Sequence[Tensor | None], steps: collections.abc.Sequence[Tensor], *, lr: typing.SupportsFloat | typing.SupportsIndex, beta1: typing.SupportsFloat | typing.SupportsIndex, beta2: typing.SupportsFloat | typing.SupportsIndex, eps: typing.SupportsFloat | typing.SupportsIndex, weight_decay: typing.SupportsFloat | typing.SupportsIndex, amsgrad: bool, maximize: bool, decoupled_weight_decay: bool) -> None:
    """
    Adam / AdamW step.
    """
def _optim_adamax(params: collections.abc.Sequence[Tensor], grads: collections.abc.Sequence[Tensor], exp_avgs: collections.abc.Sequence[Tensor], exp_infs: collections.abc.Sequence[Tensor], steps: collections.abc.Sequence[Tensor], *, lr: typing.SupportsFloat | typing.SupportsIndex, beta1: typing.SupportsFloat | typing.SupportsIndex, beta2: typing.SupportsFloat | typing.SupportsIndex, eps: typing.SupportsFloat | typing.SupportsIndex, weight_decay: typing.SupportsFloat | typing.SupportsIndex, maximize: bool) -> None:
    """
    Adamax step.
    """
def _optim_asgd(params: collections.abc.Sequence[Tensor], grads: collections.abc.Sequence[Tensor], axs: collections.abc.Sequence[Tensor], mus: collections.abc.Sequence[Tensor], etas: collections.abc.Sequence[Tensor], steps: collections.abc.Sequence[Tensor], *, lr: typing.SupportsFloat | typing.SupportsIndex, lambd: typing.SupportsFloat | typing.SupportsIndex, alpha: typing.SupportsFloat | typing.SupportsIndex, t0: typing.SupportsFloat | typing.SupportsIndex, weight_decay: typing.SupportsFloat | typing.SupportsIndex, maximize: bool) -> None:
    """
    ASGD step; also advances each parameter's eta and mu.
    """
def _optim_nadam(params: collections.abc.Sequence[Tensor], grads: collections.abc.Sequence[Tensor], exp_avgs: collections.abc.Sequence[Tensor], exp_avg_sqs: collections.abc.Sequence[Tensor], mu_products: collections.abc.Sequence[Tensor], steps: collections.abc.Sequence[Tensor], *, lr: typing.SupportsFloat | typing.SupportsIndex, beta1: typing.SupportsFloat | typing.SupportsIndex, beta2: typing.SupportsFloat | typing.SupportsIndex, eps: typing.SupportsFloat | typing.SupportsIndex, weight_decay: typing.SupportsFloat | typing.SupportsIndex, momentum_decay: typing.SupportsFloat | typing.SupportsIndex, decoupled_weight_decay: bool, maximize: bool) -> None:
    """
    NAdam step.
    """
def _optim_radam(params: collections.abc.Sequence[Tensor], grads: collections.abc.Sequence[Tensor], exp_avgs: collections.abc.Sequence[Tensor], exp_avg_sqs: collections.abc.Sequence[Tensor], steps: collections.abc.Sequence[Tensor], *, lr: typing.SupportsFloat | typing.SupportsIndex, beta1: typing.SupportsFloat | typing.SupportsIndex, beta2: typing.SupportsFloat | typing.SupportsIndex, eps: typing.SupportsFloat | typing.SupportsIndex, weight_decay: typing.SupportsFloat | typing.SupportsIndex, decoupled_weight_decay: bool, maximize: bool) -> None:
    """
    RAdam step.
    """
def _optim_rmsprop(params: collections.abc.Sequence[Tensor], grads: collections.abc.Sequence[Tensor], square_avgs: collections.abc.Sequence[Tensor], grad_avgs: collections.abc.Sequence[Tensor | None], momentum_buffers: collections.abc.Sequence[Tensor | None], steps: collections.abc.Sequence[Tensor], *, lr: typing.SupportsFloat | typing.SupportsIndex, alpha: typing.SupportsFloat | typing.SupportsIndex, eps: typing.SupportsFloat | typing.SupportsIndex, weight_decay: typing.SupportsFloat | typing.SupportsIndex, momentum: typing.SupportsFloat | typing.SupportsIndex, centered: bool, maximize: bool) -> None:
    """
    RMSprop step.
    """
def _optim_rprop(params: collections.abc.Sequence[Tensor], grads: collections.abc.Sequence[Tensor], prevs: collections.abc.Sequence[Tensor], step_sizes: collections.abc.Sequence[Tensor], steps: collections.abc.Sequence[Tensor], *, eta_minus: typing.SupportsFloat | typing.SupportsIndex, eta_plus: typing.SupportsFloat | typing.SupportsIndex, step_size_min: typing.SupportsFloat | typing.SupportsIndex, step_size_max: typing.SupportsFloat | typing.SupportsIndex, maximize: bool) -> None:
    """
    Rprop step.
    """
def _optim_sgd(params: collections.abc.Sequence[Tensor], grads: collections.abc.Sequence[Tensor], momentum_buffers: collections.abc.Sequence[Tensor | None], *, lr: typing.SupportsFloat | typing.SupportsIndex, momentum: typing.SupportsFloat | typing.SupportsIndex, dampening: typing.SupportsFloat | typing.SupportsIndex, weight_decay: typing.SupportsFloat | typing.SupportsIndex, nesterov: bool, maximize: bool) -> list[Tensor]:
    """
    SGD step; returns the momentum buffers (created on the first step, None without momentum).
    """
def _pop_saved_tensors_hooks() -> None:
    ...
def _push_saved_tensors_hooks(arg0: typing.Any, arg1: typing.Any) -> None:
    ...
def _queue_callback(arg0: typing.Any) -> None:
    ...
def _register_node_hook(arg0: typing.Any, arg1: typing.Any) -> typing.Any:
    ...
def _register_node_prehook(arg0: typing.Any, arg1: typing.Any) -> typing.Any:
    ...
def _release_cached_buffers() -> None:
    """
    Gives the allocator's idle buffers back to the system.
    """
def _restride_(self: Tensor, fn: collections.abc.Callable) -> Tensor:
    ...
def _run_backward(outputs: collections.abc.Sequence[Tensor], grad_outputs: collections.abc.Sequence[typing.Any], keep_graph: bool, create_graph: bool, inputs: collections.abc.Sequence[typing.Any], allow_unused: bool, accumulate: bool) -> typing.Any:
    ...
def _set_anomaly_enabled(arg0: bool, arg1: bool) -> None:
    ...
def _set_grad_enabled(arg0: bool) -> None:
    ...
def _set_inference_mode(arg0: bool) -> None:
    ...
def _simd_level() -> str:
    """
    The instruction set of the vectorised loops in use (ENGINE_SIMD=scalar forces 'baseline').
    """
def _slice(arg0: Tensor, arg1: typing.SupportsInt | typing.SupportsIndex, arg2: typing.SupportsInt | typing.SupportsIndex | None, arg3: typing.SupportsInt | typing.SupportsIndex | None, arg4: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
    ...
def _special_i1(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def _tensor_register_hook(arg0: Tensor, arg1: typing.Any) -> typing.Any:
    ...
def _tensor_register_post_accumulate_grad_hook(arg0: Tensor, arg1: typing.Any) -> typing.Any:
    ...
def _will_engine_execute_node(arg0: typing.Any) -> bool:
    ...
def abs(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def acos(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def acosh(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def add(input: typing.Any, other: typing.Any, *, alpha: typing.Any = 1, out: typing.Any = None) -> typing.Any:
    ...
def all(input: Tensor, dim: typing.Any = None, keepdim: bool = False) -> Tensor:
    ...
def amax(input: Tensor, dim: typing.Any = (), keepdim: bool = False) -> Tensor:
    ...
def amin(input: Tensor, dim: typing.Any = (), keepdim: bool = False) -> Tensor:
    ...
def any(input: Tensor, dim: typing.Any = None, keepdim: bool = False) -> Tensor:
    ...
def arange(*args, **kwargs) -> Tensor:
    ...
def argmax(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex | None = None, keepdim: bool = False) -> Tensor:
    ...
def argmin(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex | None = None, keepdim: bool = False) -> Tensor:
    ...
def asin(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def asinh(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def atan(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def atan2(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def atanh(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def bitwise_and(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def bitwise_left_shift(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def bitwise_not(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def bitwise_or(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def bitwise_right_shift(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def bitwise_xor(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def bmm(arg0: Tensor, arg1: Tensor) -> Tensor:
    ...
def can_cast(from_: typing.Any, to: typing.Any) -> bool:
    ...
def cat(tensors: typing.Any, dim: typing.SupportsInt | typing.SupportsIndex = 0) -> Tensor:
    ...
def ceil(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def clamp(input: Tensor, min: typing.Any = None, max: typing.Any = None, *, out: typing.Any = None) -> typing.Any:
    ...
def clip(input: Tensor, min: typing.Any = None, max: typing.Any = None, *, out: typing.Any = None) -> typing.Any:
    ...
def clone(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], padding: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], dilation: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], transposed: bool, output_padding: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], groups: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
    """
    torch.convolution: the N-d (transposed) convolution behind conv*d.
    """
def copysign(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def cos(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def cosh(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def cumprod(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, *, dtype: typing.Any = None) -> Tensor:
    ...
def cumsum(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, *, dtype: typing.Any = None) -> Tensor:
    ...
def deg2rad(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def detach(arg0: Tensor) -> Tensor:
    ...
def diagonal(input: Tensor, offset: typing.SupportsInt | typing.SupportsIndex = 0, dim1: typing.SupportsInt | typing.SupportsIndex = 0, dim2: typing.SupportsInt | typing.SupportsIndex = 1) -> Tensor:
    ...
def digamma(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def div(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def dot(arg0: Tensor, arg1: Tensor) -> Tensor:
    ...
def empty(*args, **kwargs) -> Tensor:
    ...
def empty_like(arg0: Tensor, **kwargs) -> Tensor:
    ...
def eq(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def erf(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def erfc(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def erfinv(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def exp(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def exp2(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def expm1(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def floor(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def floor_divide(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def fmax(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def fmin(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def fmod(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def frac(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def frexp(input: typing.Any) -> typing.Any:
    ...
def from_numpy(arg0: numpy.ndarray) -> Tensor:
    ...
def full(arg0: typing.Any, arg1: typing.Any, **kwargs) -> Tensor:
    ...
def full_like(arg0: Tensor, arg1: typing.Any, **kwargs) -> Tensor:
    ...
def gather(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor) -> Tensor:
    ...
def gcd(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def ge(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def get_default_dtype() -> typing.Any:
    ...
def get_num_threads() -> int:
    """
    Threads used for large elementwise and reduction kernels.
    """
def gt(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def heaviside(input: typing.Any, values: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def hypot(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def i0(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def igamma(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def igammac(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def index_add(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor, source: Tensor, *, alpha: typing.SupportsFloat | typing.SupportsIndex = 1.0) -> Tensor:
    ...
def index_copy(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor, source: Tensor) -> Tensor:
    ...
def index_select(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor) -> Tensor:
    ...
def is_anomaly_check_nan_enabled() -> bool:
    ...
def is_anomaly_enabled() -> bool:
    ...
def is_grad_enabled() -> bool:
    ...
def is_inference(arg0: Tensor) -> bool:
    ...
def is_inference_mode_enabled() -> bool:
    ...
def is_tensor(arg0: typing.Any) -> bool:
    ...
def isfinite(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def isinf(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def isnan(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def lcm(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def le(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def lerp(input: Tensor, end: Tensor, weight: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def lgamma(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """
    F.linear: input @ weight.T + bias in one GEMM and one graph node.
    """
def linspace(start: typing.Any, end: typing.Any, steps: typing.SupportsInt | typing.SupportsIndex, **kwargs) -> Tensor:
    ...
def log(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def log10(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def log1p(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def log2(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def logaddexp(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def logaddexp2(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def logical_and(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def logical_not(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def logical_or(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def logical_xor(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def logit(input: typing.Any, eps: typing.SupportsFloat | typing.SupportsIndex | None = None, *, out: typing.Any = None) -> typing.Any:
    ...
def logsumexp(input: Tensor, dim: typing.Any = None, keepdim: bool = False) -> Tensor:
    ...
def lt(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def matmul(input: Tensor, other: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def max(input: Tensor, dim: typing.Any = None, keepdim: bool = False, *, out: typing.Any = None) -> typing.Any:
    ...
def maximum(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def min(input: Tensor, dim: typing.Any = None, keepdim: bool = False, *, out: typing.Any = None) -> typing.Any:
    ...
def minimum(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def mm(arg0: Tensor, arg1: Tensor) -> Tensor:
    ...
def mul(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def mv(arg0: Tensor, arg1: Tensor) -> Tensor:
    ...
def narrow(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, start: typing.SupportsInt | typing.SupportsIndex, length: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
    ...
def ne(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def neg(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def nextafter(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def norm(input: Tensor, p: typing.Any = 'fro', dim: typing.Any = None, keepdim: bool = False, dtype: typing.Any = None) -> Tensor:
    ...
def numel(arg0: Tensor) -> int:
    ...
def ones(*args, **kwargs) -> Tensor:
    ...
def ones_like(arg0: Tensor, **kwargs) -> Tensor:
    ...
def outer(arg0: Tensor, arg1: Tensor) -> Tensor:
    ...
def permute(arg0: Tensor, arg1: typing.Any) -> Tensor:
    ...
def polygamma(n: typing.SupportsInt | typing.SupportsIndex, input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def pow(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def prod(input: Tensor, dim: typing.Any = None, keepdim: bool = False, *, dtype: typing.Any = None) -> Tensor:
    ...
def promote_types(type1: typing.Any, type2: typing.Any) -> typing.Any:
    ...
def rad2deg(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def rand(*args, **kwargs) -> Tensor:
    ...
def randint(*args, **kwargs) -> Tensor:
    ...
def randn(*args, **kwargs) -> Tensor:
    ...
def reciprocal(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def relu(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def remainder(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def reshape(arg0: Tensor, arg1: typing.Any) -> Tensor:
    ...
def result_type(arg0: typing.Any, arg1: typing.Any) -> typing.Any:
    ...
def round(input: Tensor, *, decimals: typing.SupportsInt | typing.SupportsIndex = 0, out: typing.Any = None) -> typing.Any:
    ...
def rsqrt(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def scatter(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor, src: typing.Any) -> Tensor:
    ...
def scatter_add(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor, src: Tensor) -> Tensor:
    ...
def select(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, index: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
    ...
def set_default_dtype(arg0: typing.Any) -> None:
    ...
def set_num_threads(n: typing.SupportsInt | typing.SupportsIndex) -> None:
    ...
def sigmoid(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def sign(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def signbit(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def sin(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def sinc(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def sinh(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def sqrt(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def squeeze(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex | None = None) -> Tensor:
    ...
def stack(tensors: typing.Any, dim: typing.SupportsInt | typing.SupportsIndex = 0) -> Tensor:
    ...
def std(input: Tensor, dim: typing.Any = None, unbiased: typing.Any = None, keepdim: bool = False, *, correction: typing.Any = None) -> Tensor:
    ...
def sub(input: typing.Any, other: typing.Any, *, alpha: typing.Any = 1, out: typing.Any = None) -> typing.Any:
    ...
def t(arg0: Tensor) -> Tensor:
    ...
def tan(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def tanh(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def tensor(arg0: typing.Any, **kwargs) -> Tensor:
    ...
def transpose(arg0: Tensor, arg1: typing.SupportsInt | typing.SupportsIndex, arg2: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
    ...
def trunc(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def unsqueeze(arg0: Tensor, arg1: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
    ...
def var(input: Tensor, dim: typing.Any = None, unbiased: typing.Any = None, keepdim: bool = False, *, correction: typing.Any = None) -> Tensor:
    ...
def where(arg0: Tensor, arg1: typing.Any, arg2: typing.Any) -> Tensor:
    ...
def xlogy(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def zeros(*args, **kwargs) -> Tensor:
    ...
def zeros_like(arg0: Tensor, **kwargs) -> Tensor:
    ...
bfloat16: dtype
bool: dtype
default_generator: Generator
float16: dtype
float32: dtype
float64: dtype
int16: dtype
int32: dtype
int64: dtype
int8: dtype
uint8: dtype
