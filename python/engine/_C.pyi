"""
engine's native core
"""
from __future__ import annotations
import collections.abc
class OutOfMemoryError(RuntimeError, MemoryError): ...
import numpy
import typing
import typing_extensions
__all__: list[str] = ['Generator', 'Node', 'OutOfMemoryError', 'SavedTensor', 'Tensor', 'abs', 'acos', 'acosh', 'add', 'all', 'amax', 'amin', 'any', 'arange', 'argmax', 'argmin', 'as_strided', 'asin', 'asinh', 'atan', 'atan2', 'atanh', 'bfloat16', 'bitwise_and', 'bitwise_left_shift', 'bitwise_not', 'bitwise_or', 'bitwise_right_shift', 'bitwise_xor', 'bmm', 'bool', 'can_cast', 'cat', 'ceil', 'clamp', 'clip', 'clone', 'complex', 'complex128', 'complex64', 'convolution', 'copysign', 'cos', 'cosh', 'cumprod', 'cumsum', 'default_generator', 'deg2rad', 'detach', 'diagonal', 'digamma', 'div', 'dot', 'dtype', 'elu', 'elu_', 'empty', 'empty_like', 'eq', 'erf', 'erfc', 'erfinv', 'exp', 'exp2', 'expm1', 'float16', 'float32', 'float64', 'floor', 'floor_divide', 'fmax', 'fmin', 'fmod', 'frac', 'frexp', 'from_numpy', 'full', 'full_like', 'gather', 'gcd', 'ge', 'gelu', 'get_default_dtype', 'get_num_threads', 'gt', 'hardsigmoid', 'hardswish', 'hardtanh', 'hardtanh_', 'heaviside', 'hypot', 'i0', 'igamma', 'igammac', 'index_add', 'index_copy', 'index_select', 'int16', 'int32', 'int64', 'int8', 'is_anomaly_check_nan_enabled', 'is_anomaly_enabled', 'is_grad_enabled', 'is_inference', 'is_inference_mode_enabled', 'is_tensor', 'isfinite', 'isinf', 'isnan', 'lcm', 'le', 'leaky_relu', 'leaky_relu_', 'lerp', 'lgamma', 'linear', 'linspace', 'log', 'log10', 'log1p', 'log2', 'log_sigmoid', 'logaddexp', 'logaddexp2', 'logical_and', 'logical_not', 'logical_or', 'logical_xor', 'logit', 'logsumexp', 'lt', 'matmul', 'max', 'maximum', 'min', 'minimum', 'mish', 'mm', 'mul', 'mv', 'narrow', 'ne', 'neg', 'nextafter', 'norm', 'numel', 'ones', 'ones_like', 'outer', 'permute', 'polar', 'polygamma', 'pow', 'prod', 'promote_types', 'rad2deg', 'rand', 'randint', 'randn', 'reciprocal', 'relu', 'remainder', 'reshape', 'result_type', 'round', 'rsqrt', 'scatter', 'scatter_add', 'select', 'set_default_dtype', 'set_num_threads', 'sgn', 'sigmoid', 'sign', 'signbit', 'silu', 'silu_', 'sin', 'sinc', 'sinh', 'softplus', 'sqrt', 'squeeze', 'stack', 'std', 'sub', 't', 'tan', 'tanh', 'tensor', 'threshold', 'transpose', 'trunc', 'uint8', 'unsqueeze', 'var', 'view_as_complex', 'view_as_real', 'where', 'xlogy', 'zeros', 'zeros_like']
class dtype:
    """
    The element type of a tensor: ``engine.float32`` (``engine.float``), ``float64`` (``double``),
    ``float16`` (``half``), ``bfloat16``, ``int64`` (``long``), ``int32`` (``int``), ``int16``
    (``short``), ``int8``, ``uint8`` and ``bool``. They print under PyTorch's names, so that
    printed output reads the same in both.
    
    Example::
    
        >>> engine.tensor([1.0]).dtype is engine.float32
        True
    """
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
        """
        dtype.is_complex -> bool
        
        Whether the dtype is a complex type (``complex64`` or ``complex128``).
        
        Example::
        
            >>> engine.complex64.is_complex, engine.float32.is_complex
            (True, False)
        """
    @property
    def is_floating_point(self) -> bool:
        """
        dtype.is_floating_point -> bool
        
        Whether the dtype is a floating-point type.
        
        Example::
        
            >>> engine.float16.is_floating_point, engine.int32.is_floating_point
            (True, False)
        """
    @property
    def is_signed(self) -> bool:
        """
        dtype.is_signed -> bool
        
        Whether the dtype holds negative values (``False`` for ``uint8`` and ``bool``).
        
        Example::
        
            >>> engine.int8.is_signed, engine.uint8.is_signed
            (True, False)
        """
    @property
    def itemsize(self) -> int:
        """
        dtype.itemsize -> int
        
        The size of one element in bytes.
        
        Example::
        
            >>> engine.float64.itemsize
            8
        """
class _TensorMeta:
    pass
class Tensor:
    """
    A multi-dimensional array of one dtype, with the autograd bookkeeping.
    
    Make tensors with :func:`engine.tensor`, :func:`engine.zeros`, :func:`engine.rand`,
    :func:`engine.arange`, ... Operations on them are the functions of ``engine`` (``x.exp()`` is
    ``engine.exp(x)``) and Python's operators; those whose name ends in ``_`` change the tensor in
    place. A tensor with ``requires_grad=True`` records the operations that use it, so that
    :meth:`backward` computes gradients into the leaves' :attr:`grad`.
    
    Example::
    
        >>> x = engine.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        >>> y = (x @ x).sum()
        >>> y.backward()
        >>> x.grad
        tensor([[ 7., 11.],
                [ 9., 13.]])
    """
    is_cuda: typing.ClassVar[bool] = False
    _backward_hooks = ...
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
        
        Absolute value of each element of ``input``.
        
        See :func:`engine.abs`.
        """
    @staticmethod
    def absolute_(*args, **kwargs):
        """
        abs_(self: Tensor) -> Tensor
        
        In-place version of :meth:`~Tensor.abs`: writes the result into ``self`` and returns it.
        """
    @staticmethod
    def addbmm(input, batch1, batch2, *, beta = 1, alpha = 1, out = None):
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
    def addmm(input, mat1, mat2, *, beta = 1, alpha = 1, out = None):
        """
        ``beta * input + alpha * (mat1 @ mat2)`` for matrices ``mat1`` (n, m) and ``mat2``
            (m, p); ``input`` broadcasts to (n, p). With ``beta=0``, ``input`` is ignored (NaN in it
            does not propagate).
        
            Args:
                input (Tensor): the matrix added.
                mat1 (Tensor): the first matrix of the product.
                mat2 (Tensor): the second matrix of the product.
        
            Keyword args:
                beta (Number): the multiplier of ``input``. Default: 1.
                alpha (Number): the multiplier of the product. Default: 1.
                out (Tensor, optional): the output tensor, of the result's dtype.
        
            Example::
        
                >>> engine.addmm(engine.ones(2, 2), engine.eye(2), engine.tensor([[1.0, 2.0], [3.0, 4.0]]), beta=0.5)
                tensor([[1.5000, 2.5000],
                        [3.5000, 4.5000]])
            
        """
    @staticmethod
    def addmv(input, mat, vec, *, beta = 1, alpha = 1, out = None):
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
        Whether every element of ``input`` is close to the matching one of ``other``:
            ``|input - other| <= atol + rtol * |other|`` everywhere (see :func:`isclose`).
        
            Args:
                input (Tensor): the first tensor.
                other (Tensor): the second tensor, broadcast with ``input``.
                rtol (float): the relative tolerance. Default: 1e-5.
                atol (float): the absolute tolerance. Default: 1e-8.
                equal_nan (bool): count NaNs in the same places as equal. Default: ``False``.
        
            Example::
        
                >>> engine.allclose(engine.tensor([1.0, 2.0]), engine.tensor([1.0, 2.0 + 1e-6]))
                True
            
        """
    @staticmethod
    def aminmax(input, *, dim = None, keepdim = False, out = None):
        """
        (min, max) of all elements, or along dim.
        """
    @staticmethod
    def angle(input, *, out = None):
        """
        The angle (argument) of each element: for real input, ``pi`` where it is negative and 0
            elsewhere (also at -0.0), NaN at NaN. Integer and bool inputs give the default float dtype.
        
            Args:
                input (Tensor): the input tensor.
        
            Keyword args:
                out (Tensor, optional): the output tensor.
        
            Example::
        
                >>> engine.angle(engine.tensor([-2.0, 0.0, 3.0]))
                tensor([3.1416, 0.0000, 0.0000])
            
        """
    @staticmethod
    def arccos(*args, **kwargs):
        """
        acos(self: Tensor) -> Tensor
        
        Arccosine of each element, in radians; NaN outside [-1, 1].
        
        See :func:`engine.acos`.
        """
    @staticmethod
    def arccos_(*args, **kwargs):
        """
        acos_(self: Tensor) -> Tensor
        
        In-place version of :meth:`~Tensor.acos`: writes the result into ``self`` and returns it.
        """
    @staticmethod
    def arccosh(*args, **kwargs):
        """
        acosh(self: Tensor) -> Tensor
        
        Inverse hyperbolic cosine of each element; NaN below 1.
        
        See :func:`engine.acosh`.
        """
    @staticmethod
    def arcsin(*args, **kwargs):
        """
        asin(self: Tensor) -> Tensor
        
        See :func:`engine.arcsin`.
        """
    @staticmethod
    def arcsin_(*args, **kwargs):
        """
        asin_(self: Tensor) -> Tensor
        
        In-place version of :meth:`~Tensor.arcsin`: writes the result into ``self`` and returns it.
        """
    @staticmethod
    def arcsinh(*args, **kwargs):
        """
        asinh(self: Tensor) -> Tensor
        
        See :func:`engine.arcsinh`.
        """
    @staticmethod
    def arctan(*args, **kwargs):
        """
        atan(self: Tensor) -> Tensor
        
        See :func:`engine.arctan`.
        """
    @staticmethod
    def arctan2(*args, **kwargs):
        """
        atan2(self: Tensor, other: object) -> Tensor
        
        See :func:`engine.arctan2`.
        """
    @staticmethod
    def arctan2_(*args, **kwargs):
        """
        atan2_(self: Tensor, other: object) -> Tensor
        
        In-place version of :meth:`~Tensor.arctan2`: writes the result into ``self`` and returns it.
        """
    @staticmethod
    def arctan_(*args, **kwargs):
        """
        atan_(self: Tensor) -> Tensor
        
        In-place version of :meth:`~Tensor.arctan`: writes the result into ``self`` and returns it.
        """
    @staticmethod
    def arctanh(*args, **kwargs):
        """
        atanh(self: Tensor) -> Tensor
        
        See :func:`engine.arctanh`.
        """
    @staticmethod
    def argsort(input, dim = -1, descending = False, stable = False):
        """
        The indices that sort ``input`` along ``dim``: ``sort(input, ...).indices``.
        
            Args:
                input (Tensor): the input tensor.
                dim (int): the dimension to sort along. Default: -1.
                descending (bool): largest first. Default: ``False``.
                stable (bool): keep the order of equal elements (always done). Default: ``False``.
        
            Example::
        
                >>> engine.argsort(engine.tensor([3, 1, 2]), descending=True)
                tensor([0, 2, 1])
            
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
    def baddbmm(input, batch1, batch2, *, beta = 1, alpha = 1, out = None):
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
        """
        broadcast_to(input, size) -> Tensor
        
        A view of ``input`` expanded to ``size`` under the broadcasting rules (no copy; -1 keeps a
        size). The same as ``input.expand(size)``.
        
        Args:
            input (Tensor): the input tensor.
            size (tuple of ints): the target shape.
        
        Example::
        
            >>> engine.broadcast_to(engine.tensor([1, 2]), (2, 2))
            tensor([[1, 2],
                    [1, 2]])
        """
    @staticmethod
    def cholesky(input, upper = False, *, out = None):
        """
        ``linalg.cholesky`` with errors named 'cholesky'.
        """
    @staticmethod
    def cholesky_inverse(L, upper = False, *, out = None):
        """
        A^-1 for A = L L^T (U^T U when upper), given the factor.
        """
    @staticmethod
    def cholesky_solve(B, L, upper = False, *, out = None):
        """
        X with A X = B for A = L L^T (U^T U when upper), given the factor.
        """
    @staticmethod
    def chunk(input, chunks, dim = 0):
        """
        chunk(input, chunks, dim=0) -> tuple of Tensors
        
        Splits ``input`` into at most ``chunks`` views along ``dim``, each of ``ceil(size / chunks)``
        elements but the last, which may be smaller.
        
        Args:
            input (Tensor): the tensor to split.
            chunks (int): the number of chunks.
            dim (int): the dimension to split along. Default: 0.
        
        Example::
        
            >>> engine.chunk(engine.arange(5), 2)
            (tensor([0, 1, 2]), tensor([3, 4]))
        """
    @staticmethod
    def conj(input):
        """
        The complex conjugate: a new tensor for a complex ``input``, ``input`` itself for a real
            one (as PyTorch returns a real tensor unchanged).
        
            Example::
        
                >>> x = engine.tensor([1.0, -2.0])
                >>> engine.conj(x) is x
                True
            
        """
    @staticmethod
    def conj_physical(input, *, out = None):
        """
        The conjugate, computed eagerly: for a real tensor ``input`` itself (PyTorch returns it
            unchanged), or ``out`` holding a copy of it.
        
            Example::
        
                >>> engine.conj_physical(engine.tensor([1.0, -2.0]))
                tensor([ 1., -2.])
            
        """
    @staticmethod
    def conj_physical_(input):
        """
        In-place ``conj_physical``: a real tensor is its own conjugate, so it is returned as is;
            a complex one has its imaginary part negated in place.
        """
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
    def cross(input, other, dim = None, *, out = None):
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
        """
        diag(input, diagonal=0) -> Tensor
        
        For a 1-D ``input``, a square matrix with it on the given diagonal; for a 2-D ``input``, its
        given diagonal as a 1-D tensor.
        
        Args:
            input (Tensor): a vector or a matrix.
            diagonal (int): 0 the main diagonal, > 0 above it, < 0 below it.
        
        Example::
        
            >>> engine.diag(engine.tensor([1, 2]))
            tensor([[1, 0],
                    [0, 2]])
        """
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
    def diff(input, n = 1, dim = -1, prepend = None, append = None, *, out = None):
        """
        The n-th forward difference along dim, after joining prepend and append.
        """
    @staticmethod
    def dist(input, other, p = 2):
        """
        p-norm of ``input - other`` (broadcast).
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
        
        See :func:`engine.fix`.
        """
    @staticmethod
    def fix_(*args, **kwargs):
        """
        trunc_(self: Tensor) -> Tensor
        
        In-place version of :meth:`~Tensor.fix`: writes the result into ``self`` and returns it.
        """
    @staticmethod
    def flatten(input, start_dim = 0, end_dim = -1):
        """
        flatten(input, start_dim=0, end_dim=-1) -> Tensor
        
        Merges the dimensions ``start_dim`` to ``end_dim`` into one: a view when possible, else a copy.
        
        Args:
            input (Tensor): the input tensor.
            start_dim (int): the first dimension to merge.
            end_dim (int): the last dimension to merge.
        
        Example::
        
            >>> engine.flatten(engine.zeros(2, 3, 4), start_dim=1).shape
            torch.Size([2, 12])
        """
    @staticmethod
    def flip(input, *dims_given, dims = None):
        """
        flip(input, dims) -> Tensor
        
        A copy of ``input`` with the order of elements reversed along each dimension in ``dims``.
        
        Args:
            input (Tensor): the input tensor.
            dims (tuple of ints): the dimensions to reverse.
        
        Example::
        
            >>> engine.flip(engine.tensor([[1, 2], [3, 4]]), (1,))
            tensor([[2, 1],
                    [4, 3]])
        """
    @staticmethod
    def fliplr(input):
        """
        input with its columns (dim 1) reversed; input needs 2 or more dims.
        """
    @staticmethod
    def flipud(input):
        """
        input with its rows (dim 0) reversed; input needs 1 or more dims.
        """
    @staticmethod
    def float_power(input, exponent, *, out = None):
        """
        ``input ** exponent`` computed in float64 (either may be a Python number).
        """
    @staticmethod
    def geqrf(input, *, out = None):
        """
        (a, tau): LAPACK's compact Householder QR (no gradient, as in PyTorch).
        """
    @staticmethod
    def ger(*args, **kwargs):
        """
        outer(self: Tensor, vec2: Tensor) -> Tensor
        
        See :func:`engine.ger`.
        """
    @staticmethod
    def greater(*args, **kwargs):
        """
        gt(self: Tensor, arg0: object) -> Tensor
        
        Tells, element by element, whether ``input`` is greater than ``other``, as a bool tensor.
        
        See :func:`engine.greater`.
        """
    @staticmethod
    def greater_equal(*args, **kwargs):
        """
        ge(self: Tensor, arg0: object) -> Tensor
        
        Tells, element by element, whether ``input`` is greater than or equal to ``other``, as a bool
        tensor.
        
        See :func:`engine.ge`.
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
    def inverse(input, *, out = None):
        """
        ``linalg.inv``.
        """
    @staticmethod
    def is_complex(input):
        """
        Whether ``input``'s dtype is complex (complex64 or complex128).
        """
    @staticmethod
    def is_conj(input):
        """
        Whether ``input`` is a lazily conjugated view: never in engine, which conjugates eagerly.
        """
    @staticmethod
    def is_neg(input):
        """
        Whether ``input`` carries a lazy negation bit: never in engine.
        """
    @staticmethod
    def isclose(input, other, rtol = 1e-05, atol = 1e-08, equal_nan = False):
        """
        Elementwise ``|input - other| <= atol + rtol * |other|`` (exact equality for bools), as a bool
            tensor of the broadcast shape; both inputs must have the same dtype.
        
            Args:
                input (Tensor): the first tensor.
                other (Tensor): the second tensor.
                rtol (float): the relative tolerance. Default: 1e-5.
                atol (float): the absolute tolerance. Default: 1e-8.
                equal_nan (bool): count NaNs in the same places as equal. Default: ``False``.
        
            Example::
        
                >>> engine.isclose(engine.tensor([1.0, 2.0, float('nan')]), engine.tensor([1.0, 2.1, float('nan')]))
                tensor([ True, False, False])
            
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
    def istft(input, n_fft, hop_length = None, win_length = None, window = None, center = True, normalized = False, onesided = None, length = None, return_complex = False):
        """
        The inverse of :func:`stft`: each frame's inverse transform, windowed and overlap-added,
            divided by the overlap-added squared window; ``length`` cuts or zero-pads the signal.
        
            Example::
        
                >>> x = engine.arange(16.0)
                >>> w = engine.hann_window(8)
                >>> s = engine.stft(x, 8, window=w, return_complex=True)
                >>> (engine.istft(s, 8, window=w, length=16) - x).abs().max() < 1e-4
                tensor(True)
            
        """
    @staticmethod
    def kron(input, other, *, out = None):
        """
        The Kronecker product: blocks ``input[i] * other`` laid out over a shape of products.
        """
    @staticmethod
    def kthvalue(input, k, dim = -1, keepdim = False):
        """
        (values, indices) of the k-th smallest element (1-based) along dim.
        """
    @staticmethod
    def ldexp(input, other, *, out = None):
        """
        ``input * 2 ** other``.
        """
    @staticmethod
    def less(*args, **kwargs):
        """
        lt(self: Tensor, arg0: object) -> Tensor
        
        Tells, element by element, whether ``input`` is less than ``other``, as a bool tensor.
        
        See :func:`engine.less`.
        """
    @staticmethod
    def less_equal(*args, **kwargs):
        """
        le(self: Tensor, arg0: object) -> Tensor
        
        Tells, element by element, whether ``input`` is less than or equal to ``other``, as a bool
        tensor.
        
        See :func:`engine.le`.
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
    def lu(A, pivot = True, get_infos = False, out = None):
        """
        (LU, pivots) of A, and infos when get_infos.
        """
    @staticmethod
    def lu_solve(b, LU_data, LU_pivots, *, out = None):
        """
        ``linalg.lu_solve(LU_data, LU_pivots, b)``.
        """
    @staticmethod
    def masked_fill(input, mask, value):
        """
        masked_fill(input, mask, value) -> Tensor
        
        A copy of ``input`` with ``value`` where the bool ``mask`` (broadcast to ``input``'s shape) is
        true.
        
        Args:
            input (Tensor): the input tensor.
            mask (BoolTensor): where to write.
            value (Number or 0-d Tensor): the value written.
        
        Example::
        
            >>> engine.masked_fill(engine.zeros(3), engine.tensor([True, False, True]), 1.0)
            tensor([1., 0., 1.])
        """
    @staticmethod
    def masked_scatter(input, mask, source):
        """
        input with the positions where mask is True filled, in order, by source's leading elements.
        """
    @staticmethod
    def masked_select(input, mask, *, out = None):
        """
        A new 1-D tensor of the elements of ``input`` where the bool ``mask`` (broadcast with
            ``input``) is ``True``, in row-major order; the same as ``input[mask]``.
        
            Args:
                input (Tensor): the input tensor.
                mask (BoolTensor): which elements to take.
        
            Keyword args:
                out (Tensor, optional): the output tensor.
        
            Example::
        
                >>> x = engine.tensor([[1, 2], [3, 4]])
                >>> engine.masked_select(x, x > 1)
                tensor([2, 3, 4])
            
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
    def median(input, dim = None, keepdim = False, *, out = None):
        """
        The lower median (of all elements, or (values, indices) along dim); NaN if the slice has one.
        """
    @staticmethod
    def mode(input, dim = -1, keepdim = False, *, out = None):
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
        mul(self: Tensor, other: object) -> Tensor
        
        Multiplies ``input`` by ``other`` element by element.
        
        See :func:`engine.mul`.
        """
    @staticmethod
    def multiply_(*args, **kwargs):
        """
        mul_(self: Tensor, other: object) -> Tensor
        
        In-place version of :meth:`~Tensor.mul`: writes the result into ``self`` and returns it.
        """
    @staticmethod
    def mvlgamma(input, p):
        """
        The multivariate log-gamma function of dimension ``p``:
            ``p(p-1)/4 log(pi) + sum_{j<p} lgamma(input - j/2)``, elementwise. Like PyTorch 2.13, elements
            at or below (p-1)/2 give lgamma's values at its poles (inf) rather than an error.
        """
    @staticmethod
    def nan_to_num(input, nan = 0.0, posinf = None, neginf = None, *, out = None):
        """
        NaN, +inf and -inf replaced (by 0 and the dtype's largest and lowest finite values).
        """
    @staticmethod
    def nanmean(input, dim = None, keepdim = False, *, dtype = None, out = None):
        """
        The mean of the non-NaN elements (NaN where all are NaN).
        """
    @staticmethod
    def nanmedian(input, dim = None, keepdim = False, *, out = None):
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
    def nansum(input, dim = None, keepdim = False, *, dtype = None, out = None):
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
        
        dim() -> int
        
        The number of dimensions.
        
        Example::
        
            >>> engine.zeros(2, 3).dim()
            2
        """
    @staticmethod
    def negative(*args, **kwargs):
        """
        neg(self: Tensor) -> Tensor
        
        Negation (``-input``) of each element.
        
        See :func:`engine.neg`.
        """
    @staticmethod
    def negative_(*args, **kwargs):
        """
        neg_(self: Tensor) -> Tensor
        
        In-place version of :meth:`~Tensor.neg`: writes the result into ``self`` and returns it.
        """
    @staticmethod
    def nonzero(input, *, out = None, as_tuple = False):
        """
        The indices of the non-zero elements of ``input``, in row-major order: an int64 tensor of
            shape (n, input.dim()) with one row per element, or with ``as_tuple=True`` one 1-D tensor
            per dimension (usable as an index: ``input[input.nonzero(as_tuple=True)]``).
        
            Args:
                input (Tensor): the input tensor.
        
            Keyword args:
                as_tuple (bool): return one tensor per dimension. Default: ``False``.
                out (Tensor, optional): the output tensor.
        
            Example::
        
                >>> x = engine.tensor([[0, 1], [2, 0]])
                >>> engine.nonzero(x)
                tensor([[0, 1],
                        [1, 0]])
                >>> engine.nonzero(x, as_tuple=True)
                (tensor([0, 1]), tensor([1, 0]))
            
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
        
        Tells, element by element, whether ``input`` is not equal to ``other``, as a bool tensor.
        
        See :func:`engine.ne`.
        """
    @staticmethod
    def orgqr(input, tau):
        """
        ``linalg.householder_product``.
        """
    @staticmethod
    def ormqr(input, tau, other, left = True, transpose = False, *, out = None):
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
    def qr(input, some = True, *, out = None):
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
    def resolve_conj(input):
        """
        ``input`` with its conjugate bit resolved: engine conjugates eagerly and keeps no such
            bit, so ``input`` itself.
        """
    @staticmethod
    def resolve_neg(input):
        """
        ``input`` with its negative bit resolved: engine's tensors have none, so ``input`` itself.
        """
    @staticmethod
    def roll(input, shifts, dims = None):
        """
        roll(input, shifts, dims=None) -> Tensor
        
        Rotates the elements of ``input`` by ``shifts`` along ``dims``: elements that leave one end
        come back at the other. Without ``dims`` the tensor is flattened, rolled and reshaped back.
        
        Args:
            input (Tensor): the input tensor.
            shifts (int or tuple of ints): how far to move.
            dims (int or tuple of ints, optional): along which dimensions.
        
        Example::
        
            >>> engine.roll(engine.tensor([1, 2, 3, 4]), 1)
            tensor([4, 1, 2, 3])
        """
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
        Sorts ``input`` along ``dim`` and returns the named tuple ``(values, indices)``, where
            ``indices`` are the positions of the values in ``input``. The sort is stable (equal
            elements keep their order) whatever ``stable`` says; NaN sorts as the largest value.
        
            Args:
                input (Tensor): the input tensor.
                dim (int): the dimension to sort along. Default: -1.
                descending (bool): largest first. Default: ``False``.
                stable (bool): accepted; the sort is always stable.
        
            Example::
        
                >>> engine.sort(engine.tensor([3, 1, 2]))
                torch.return_types.sort(
                values=tensor([1, 2, 3]),
                indices=tensor([1, 2, 0]))
            
        """
    @staticmethod
    def split_with_sizes(input, split_sizes, dim = 0):
        """
        Views of input of the given sizes along dim; the sizes must sum to the dim's size.
        """
    @staticmethod
    def square(input, *, out = None):
        """
        ``input * input`` (integers stay integers; bools give int64, as PyTorch's pow(input, 2)).
        """
    @staticmethod
    def stft(input, n_fft, hop_length = None, win_length = None, window = None, center = True, pad_mode = 'reflect', normalized = False, onesided = None, return_complex = None, align_to_window = None):
        """
        The short-time Fourier transform: ``window``-weighted frames of ``n_fft`` samples every
            ``hop_length`` (default ``n_fft // 4``), each transformed with :func:`engine.fft.fft`. The
            result is ``(n_fft // 2 + 1, n_frames)`` (onesided, the default for real input) or
            ``(n_fft, n_frames)``, after a batch dim if the input has one. ``center`` pads the signal by
            ``n_fft // 2`` on both sides with ``pad_mode``; ``normalized`` scales by ``n_fft ** -0.5``.
            ``return_complex`` must be given for real input (PyTorch's rule); False returns the
            deprecated ``view_as_real`` form.
        
            Example::
        
                >>> engine.stft(engine.ones(8), 4, window=engine.ones(4), return_complex=True).shape
                torch.Size([3, 9])
            
        """
    @staticmethod
    def subtract(*args, **kwargs):
        """
        sub(self: Tensor, other: object, *, alpha: object = 1) -> Tensor
        
        Subtracts ``other``, scaled by ``alpha``, from ``input``.
        
        See :func:`engine.sub`.
        """
    @staticmethod
    def subtract_(*args, **kwargs):
        """
        sub_(self: Tensor, other: object, *, alpha: object = 1) -> Tensor
        
        In-place version of :meth:`~Tensor.sub`: writes the result into ``self`` and returns it.
        """
    @staticmethod
    def svd(input, some = True, compute_uv = True, *, out = None):
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
        """
        take(input, index) -> Tensor
        
        The elements of ``input``, read as a flat 1-D tensor, at the positions in ``index``; the result
        has ``index``'s shape.
        
        Args:
            input (Tensor): the input tensor.
            index (LongTensor): flat positions.
        
        Example::
        
            >>> engine.take(engine.tensor([[1, 2], [3, 4]]), engine.tensor([0, 3]))
            tensor([1, 4])
        """
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
        The ``k`` largest (or, with ``largest=False``, smallest) elements along ``dim``, as the
            named tuple ``(values, indices)``.
        
            Args:
                input (Tensor): the input tensor.
                k (int): how many elements, at most the size of ``dim``.
                dim (int): the dimension to search. Default: -1.
                largest (bool): the largest (``True``) or the smallest. Default: ``True``.
                sorted (bool): return them in sorted order. Default: ``True``.
        
            Example::
        
                >>> engine.topk(engine.tensor([1.0, 5.0, 3.0, 4.0]), 2)
                torch.return_types.topk(
                values=tensor([5., 4.]),
                indices=tensor([1, 3]))
            
        """
    @staticmethod
    def trace(input):
        """
        The sum of a matrix's diagonal (int64 for integer matrices).
        """
    @staticmethod
    def triangular_solve(b, A, upper = True, transpose = False, unitriangular = False, *, out = None):
        """
        (solution of op(A) X = b, a copy of A).
        """
    @staticmethod
    def tril(input, diagonal = 0):
        """
        tril(input, diagonal=0) -> Tensor
        
        The lower triangle of the matrices in ``input`` (its last two dimensions): elements above the
        given diagonal are set to 0.
        
        Args:
            input (Tensor): the input tensor.
            diagonal (int): which diagonal bounds the triangle.
        
        Example::
        
            >>> engine.tril(engine.ones(2, 2))
            tensor([[1., 0.],
                    [1., 1.]])
        """
    @staticmethod
    def triu(input, diagonal = 0):
        """
        triu(input, diagonal=0) -> Tensor
        
        The upper triangle of the matrices in ``input`` (its last two dimensions): elements below the
        given diagonal are set to 0.
        
        Args:
            input (Tensor): the input tensor.
            diagonal (int): which diagonal bounds the triangle.
        
        Example::
        
            >>> engine.triu(engine.ones(2, 2))
            tensor([[1., 1.],
                    [0., 1.]])
        """
    @staticmethod
    def unbind(input, dim = 0):
        """
        unbind(input, dim=0) -> tuple of Tensors
        
        The slices of ``input`` along ``dim``, each without that dimension.
        
        Args:
            input (Tensor): the tensor to take apart.
            dim (int): the dimension. Default: 0.
        
        Example::
        
            >>> engine.unbind(engine.tensor([[1, 2], [3, 4]]))
            (tensor([1, 2]), tensor([3, 4]))
        """
    @staticmethod
    def unflatten(input, dim, sizes):
        """
        unflatten(input, dim, sizes) -> Tensor
        
        Splits dimension ``dim`` into several of the given ``sizes`` (one may be -1): the inverse of
        :func:`flatten`.
        
        Args:
            input (Tensor): the input tensor.
            dim (int): the dimension to split.
            sizes (tuple of ints): the new sizes; their product is ``input.size(dim)``.
        
        Example::
        
            >>> engine.unflatten(engine.zeros(2, 12), 1, (3, -1)).shape
            torch.Size([2, 3, 4])
        """
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
        unsafe_chunk(input, chunks, dim=0) -> tuple of Tensors
        
        Like :func:`chunk`, kept for PyTorch compatibility (the views are not checked against later
        in-place changes).
        
        Args:
            input (Tensor): the tensor to split.
            chunks (int): the number of chunks.
            dim (int): the dimension to split along. Default: 0.
        
        Example::
        
            >>> engine.unsafe_chunk(engine.arange(4), 2)
            (tensor([0, 1]), tensor([2, 3]))
        """
    @staticmethod
    def unsafe_split(input, split_size, dim = 0):
        """
        ``split`` whose pieces are not views: they may be written in place (they share memory
            with the input, which autograd does not track).
        """
    @staticmethod
    def unsafe_split_with_sizes(input, split_sizes, dim = 0):
        """
        ``split_with_sizes`` whose pieces are not views (see ``unsafe_split``).
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
            constructor. For a subclass, as in PyTorch, ``Sub(t)`` is a view of all of ``t`` that stays
            in its graph (``AliasBackward0``) and ``Sub(data)`` / ``Sub(*sizes)`` a new tensor; Python
            then runs the subclass's own ``__init__`` with the same arguments. Without arguments nothing
            is created: an instance whose native part was never built must not exist.
        """
    @classmethod
    def _alias_subclass(cls: typing.Any, data: Tensor) -> typing.Any:
        ...
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
    def __dlpack__(self, *, stream = -1, max_version = None, dl_device = None, copy = None):
        """
        Exports the tensor as a DLPack capsule sharing its memory (the array API's ``__dlpack__``).
        
            Args:
                stream (int or None): CUDA stream of the consumer; on the CPU only ``None`` and ``-1``
                    (no synchronisation) are valid.
                max_version (tuple[int, int] or None): the newest DLPack version the consumer reads. With
                    a major version of 1 or more the capsule is ``"dltensor_versioned"`` (DLPack 1.0),
                    otherwise the legacy ``"dltensor"``.
                dl_device (tuple[DLDeviceType, int] or None): the device the consumer wants the data on;
                    only the CPU is possible (``BufferError`` otherwise).
                copy (bool or None): ``True`` exports a copy, ``False`` and ``None`` share the memory.
        
            A tensor that requires grad is refused (``BufferError``), as in PyTorch: use ``detach()``.
            
        """
    def __dlpack_device__(self):
        """
        The DLPack device of the tensor: ``(DLDeviceType.kDLCPU, 0)``.
        """
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
    def __ipow__(self, arg0: typing.Any) -> typing.Any:
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
    def __reduce__(self):
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
        """
        Absolute value of each element of ``input``.
        
        See :func:`engine.abs`.
        """
    def abs_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.abs`: writes the result into ``self`` and returns it.
        """
    def acos(self) -> Tensor:
        """
        Arccosine of each element, in radians; NaN outside [-1, 1].
        
        See :func:`engine.acos`.
        """
    def acos_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.acos`: writes the result into ``self`` and returns it.
        """
    def acosh(self) -> Tensor:
        """
        Inverse hyperbolic cosine of each element; NaN below 1.
        
        See :func:`engine.acosh`.
        """
    def acosh_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.acosh`.
        """
    def add(self, other: typing.Any, *, alpha: typing.Any = 1) -> Tensor:
        """
        Adds ``other``, scaled by ``alpha``, to ``input``: :math:`input + alpha \\times other`.
        
        See :func:`engine.add`.
        """
    def add_(self, other: typing.Any, *, alpha: typing.Any = 1) -> Tensor:
        """
        In-place version of :meth:`~Tensor.add`: writes the result into ``self`` and returns it.
        """
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
        """
        Tests whether all elements (or all along ``dim``) are non-zero; a bool tensor.
        
        See :func:`engine.all`.
        """
    def amax(self, dim: typing.Any = (), keepdim: bool = False) -> Tensor:
        """
        Maximum over ``dim`` (all dimensions by default); unlike :func:`max` it returns no indices, and
        its gradient is shared evenly between tied maxima.
        
        See :func:`engine.amax`.
        """
    def amin(self, dim: typing.Any = (), keepdim: bool = False) -> Tensor:
        """
        Minimum over ``dim`` (all dimensions by default); unlike :func:`min` it returns no indices, and
        its gradient is shared evenly between tied minima.
        
        See :func:`engine.amin`.
        """
    def any(self, dim: typing.Any = None, keepdim: bool = False) -> Tensor:
        """
        Tests whether any element (or any along ``dim``) is non-zero; a bool tensor.
        
        See :func:`engine.any`.
        """
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
        """
        Index of the largest element: of the flattened tensor, or along ``dim``.
        
        See :func:`engine.argmax`.
        """
    def argmin(self, dim: typing.SupportsInt | typing.SupportsIndex | None = None, keepdim: bool = False) -> Tensor:
        """
        Index of the smallest element: of the flattened tensor, or along ``dim``.
        
        See :func:`engine.argmin`.
        """
    def as_strided(self, size: typing.Any, stride: typing.Any, storage_offset: typing.Any = None) -> Tensor:
        """
        A view of ``input``'s memory with the given ``size``, ``stride`` and ``storage_offset`` (in
        elements, from the start of the memory ``input`` views; by default ``input``'s own offset).
        
        See :func:`engine.as_strided`.
        """
    def as_strided_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.as_strided`: self becomes the view.
        """
    def as_subclass(self, cls):
        """
        self's data (shared) as an instance of the Tensor subclass cls: a view of self that stays
            in its graph (``AliasBackward0``), as in PyTorch.
        """
    def asin(self) -> Tensor:
        """
        See :func:`engine.arcsin`.
        """
    def asin_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.arcsin`: writes the result into ``self`` and returns it.
        """
    def asinh(self) -> Tensor:
        """
        See :func:`engine.arcsinh`.
        """
    def asinh_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.asinh`.
        """
    def atan(self) -> Tensor:
        """
        See :func:`engine.arctan`.
        """
    def atan2(self, other: typing.Any) -> Tensor:
        """
        See :func:`engine.arctan2`.
        """
    def atan2_(self, other: typing.Any) -> Tensor:
        """
        In-place version of :meth:`~Tensor.arctan2`: writes the result into ``self`` and returns it.
        """
    def atan_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.arctan`: writes the result into ``self`` and returns it.
        """
    def atanh(self) -> Tensor:
        """
        See :func:`engine.arctanh`.
        """
    def atanh_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.atanh`.
        """
    def backward(self, gradient: typing.Any = None, retain_graph: typing.Any = None, create_graph: bool = False, inputs: typing.Any = None) -> None:
        """
        Computes the gradient of this tensor w.r.t. the graph leaves (see ``engine.autograd.backward``).
        
        backward(gradient=None, retain_graph=None, create_graph=False, inputs=None) -> None
        
        Accumulates into each leaf's :attr:`grad` the gradient of this tensor with respect to it. A
        tensor of more than one element needs ``gradient``, the vector of the vector-Jacobian product;
        the graph is freed afterwards unless ``retain_graph=True``. The same as
        ``engine.autograd.backward(self, gradient, ...)``.
        
        Args:
            gradient (Tensor, optional): the gradient with respect to this tensor, its shape.
            retain_graph (bool, optional): keep the graph for another backward. Default:
                ``create_graph``.
            create_graph (bool): record the backward pass for higher derivatives.
            inputs (sequence of Tensors, optional): accumulate into these tensors only.
        
        Example::
        
            >>> x = engine.tensor([1.0, 2.0], requires_grad=True)
            >>> y = x * x
            >>> y.backward(engine.tensor([1.0, 0.5]))
            >>> x.grad
            tensor([2., 2.])
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
        """
        bfloat16(memory_format=engine.preserve_format) -> Tensor
        
        ``self.to(engine.bfloat16)``: the tensor as bfloat16 (itself if it already is).
        """
    def bitwise_and(self, other: typing.Any) -> Tensor:
        """
        Bitwise AND of each pair of elements (integer or bool tensors).
        
        See :func:`engine.bitwise_and`.
        """
    def bitwise_and_(self, other: typing.Any) -> Tensor:
        """
        In-place version of :meth:`~Tensor.bitwise_and`: writes the result into ``self`` and returns it.
        """
    def bitwise_left_shift(self, other: typing.Any) -> Tensor:
        """
        Each element shifted left by ``other`` bits (integer or bool tensors).
        
        See :func:`engine.bitwise_left_shift`.
        """
    def bitwise_left_shift_(self, other: typing.Any) -> Tensor:
        """
        In-place version of :meth:`~Tensor.bitwise_left_shift`: writes the result into ``self`` and returns it.
        """
    def bitwise_not(self) -> Tensor:
        """
        Bitwise NOT of each element of an integer or bool tensor.
        
        See :func:`engine.bitwise_not`.
        """
    def bitwise_not_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.bitwise_not`: writes the result into ``self`` and returns it.
        """
    def bitwise_or(self, other: typing.Any) -> Tensor:
        """
        Bitwise OR of each pair of elements (integer or bool tensors).
        
        See :func:`engine.bitwise_or`.
        """
    def bitwise_or_(self, other: typing.Any) -> Tensor:
        """
        In-place version of :meth:`~Tensor.bitwise_or`: writes the result into ``self`` and returns it.
        """
    def bitwise_right_shift(self, other: typing.Any) -> Tensor:
        """
        Each element shifted right by ``other`` bits (arithmetic shift) (integer or bool tensors).
        
        See :func:`engine.bitwise_right_shift`.
        """
    def bitwise_right_shift_(self, other: typing.Any) -> Tensor:
        """
        In-place version of :meth:`~Tensor.bitwise_right_shift`: writes the result into ``self`` and returns it.
        """
    def bitwise_xor(self, other: typing.Any) -> Tensor:
        """
        Bitwise XOR of each pair of elements (integer or bool tensors).
        
        See :func:`engine.bitwise_xor`.
        """
    def bitwise_xor_(self, other: typing.Any) -> Tensor:
        """
        In-place version of :meth:`~Tensor.bitwise_xor`: writes the result into ``self`` and returns it.
        """
    def bmm(self, mat2: Tensor) -> Tensor:
        """
        Batched matrix product of two 3-D tensors, ``(b, n, m) @ (b, m, p) -> (b, n, p)``, without
        broadcasting.
        
        See :func:`engine.bmm`.
        """
    def bool(self) -> Tensor:
        """
        bool(memory_format=engine.preserve_format) -> Tensor
        
        ``self.to(engine.bool)``: the tensor as bool (itself if it already is).
        """
    def byte(self) -> Tensor:
        """
        byte(memory_format=engine.preserve_format) -> Tensor
        
        ``self.to(engine.uint8)``: the tensor as uint8 (itself if it already is).
        """
    def cauchy_(self, median = 0.0, sigma = 1.0, *, generator = None):
        """
        Fills self with Cauchy(median, sigma) samples: ``median + sigma * tan(pi (u - 1/2))``.
        """
    def ceil(self) -> Tensor:
        """
        Smallest integer not less than each element.
        
        See :func:`engine.ceil`.
        """
    def ceil_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.ceil`: writes the result into ``self`` and returns it.
        """
    def char(self) -> Tensor:
        """
        char(memory_format=engine.preserve_format) -> Tensor
        
        ``self.to(engine.int8)``: the tensor as int8 (itself if it already is).
        """
    def clamp(self, min: typing.Any = None, max: typing.Any = None) -> Tensor:
        """
        Clamps each element into ``[min, max]``; either bound may be ``None`` (not both), a number or a
        broadcasting tensor.
        
        See :func:`engine.clamp`.
        """
    def clamp_(self, min: typing.Any = None, max: typing.Any = None) -> Tensor:
        """
        In-place version of :meth:`~Tensor.clamp`: writes the result into ``self`` and returns it.
        """
    def clamp_max(self, max: typing.Any) -> Tensor:
        """
        clamp_max(max) -> Tensor
        
        ``self.clamp(max=max)``: each element, or ``max`` where it is larger.
        
        Args:
            max (Number or Tensor): the upper bound.
        
        Example::
        
            >>> engine.tensor([1.0, 3.0]).clamp_max(2)
            tensor([1., 2.])
        """
    def clamp_max_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.clamp_max`.
        """
    def clamp_min(self, min: typing.Any) -> Tensor:
        """
        clamp_min(min) -> Tensor
        
        ``self.clamp(min=min)``: each element, or ``min`` where it is smaller.
        
        Args:
            min (Number or Tensor): the lower bound.
        
        Example::
        
            >>> engine.tensor([1.0, 3.0]).clamp_min(2)
            tensor([2., 3.])
        """
    def clamp_min_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.clamp_min`.
        """
    def clip(self, min: typing.Any = None, max: typing.Any = None) -> Tensor:
        """
        Clamps each element into ``[min, max]``; either bound may be ``None`` (not both), a number or a
        broadcasting tensor.
        
        See :func:`engine.clip`.
        """
    def clip_(self, min: typing.Any = None, max: typing.Any = None) -> Tensor:
        """
        In-place version of :meth:`~Tensor.clip`: writes the result into ``self`` and returns it.
        """
    def clone(self, *, memory_format = ...):
        """
        A copy of ``input`` with its own memory.
        
        See :func:`engine.clone`.
        """
    def const_data_ptr(self):
        """
        The address of the first element (``data_ptr``).
        """
    def contiguous(self, memory_format = ...):
        """
        contiguous(memory_format=engine.contiguous_format) -> Tensor
        
        The tensor itself if it is contiguous, else a contiguous copy with the same values.
        
        Example::
        
            >>> engine.zeros(2, 3).t().contiguous().stride()
            (2, 1)
        """
    def copy_(self, arg0: Tensor) -> Tensor:
        """
        copy_(src, non_blocking=False) -> Tensor
        
        Copies the elements of ``src`` (broadcast to this tensor's shape, converted to its dtype) into
        this tensor, and returns it.
        
        Args:
            src (Tensor): the values to copy.
        
        Example::
        
            >>> x = engine.zeros(2, 2)
            >>> x.copy_(engine.tensor([1.0, 2.0]))
            tensor([[1., 2.],
                    [1., 2.]])
        """
    def copysign(self, other: typing.Any) -> Tensor:
        """
        The magnitude of ``input`` with the sign of ``other``, element by element.
        
        See :func:`engine.copysign`.
        """
    def copysign_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.copysign`.
        """
    def cos(self) -> Tensor:
        """
        Cosine of each element (in radians).
        
        See :func:`engine.cos`.
        """
    def cos_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.cos`: writes the result into ``self`` and returns it.
        """
    def cosh(self) -> Tensor:
        """
        Hyperbolic cosine of each element.
        
        See :func:`engine.cosh`.
        """
    def cosh_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.cosh`: writes the result into ``self`` and returns it.
        """
    def cpu(self) -> Tensor:
        """
        cpu(memory_format=engine.preserve_format) -> Tensor
        
        The tensor in CPU memory: every engine tensor already is, so it is returned as is.
        """
    def cuda(self, device = None, non_blocking = False, memory_format = None):
        """
        cuda(device=None, non_blocking=False) -> Tensor
        
        Would copy the tensor to a CUDA device; engine runs on the CPU only, so it raises, as PyTorch
        built without CUDA does.
        """
    def cumprod(self, dim: typing.SupportsInt | typing.SupportsIndex, *, dtype: typing.Any = None) -> Tensor:
        """
        Cumulative product along ``dim``: element ``i`` is the product of elements ``0..i``.
        
        See :func:`engine.cumprod`.
        """
    def cumprod_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.cumprod`.
        """
    def cumsum(self, dim: typing.SupportsInt | typing.SupportsIndex, *, dtype: typing.Any = None) -> Tensor:
        """
        Cumulative sum along ``dim``: element ``i`` is the sum of elements ``0..i``.
        
        See :func:`engine.cumsum`.
        """
    def cumsum_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.cumsum`.
        """
    def data_ptr(self) -> int:
        """
        data_ptr() -> int
        
        The address of the tensor's first element in memory.
        """
    def deg2rad(self) -> Tensor:
        """
        Converts each element from degrees to radians.
        
        See :func:`engine.deg2rad`.
        """
    def deg2rad_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.deg2rad`.
        """
    def detach(self) -> Tensor:
        """
        A new tensor that shares ``input``'s memory but is outside the autograd graph
        (``requires_grad=False``, no ``grad_fn``).
        
        See :func:`engine.detach`.
        """
    def detach_(self) -> Tensor:
        """
        detach_() -> Tensor
        
        Detaches this tensor from the graph in place: it becomes a leaf that does not require grad.
        Views cannot be detached in place.
        """
    def diagonal(self, offset: typing.SupportsInt | typing.SupportsIndex = 0, dim1: typing.SupportsInt | typing.SupportsIndex = 0, dim2: typing.SupportsInt | typing.SupportsIndex = 1) -> Tensor:
        """
        A view of the diagonal of ``input`` with respect to ``dim1`` and ``dim2``, appended as the last
        dimension.
        
        See :func:`engine.diagonal`.
        """
    def digamma(self) -> Tensor:
        """
        Digamma function (the derivative of ``lgamma``) of each element; ``-inf`` at 0.
        
        See :func:`engine.digamma`.
        """
    def digamma_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.digamma`.
        """
    def dim(self) -> int:
        """
        dim() -> int
        
        The number of dimensions.
        
        Example::
        
            >>> engine.zeros(2, 3).dim()
            2
        """
    def dim_order(self, *, ambiguity_check = False):
        """
        The dims from outermost to innermost in memory (by decreasing stride; ties keep dim order).
        """
    def div(self, other, *, rounding_mode = ...):
        """
        True division of ``input`` by ``other`` element by element (integers give the default float
        dtype); see :func:`floor_divide` for rounded quotients.
        
        See :func:`engine.div`.
        """
    def div_(self, other, *, rounding_mode = ...):
        """
        In-place version of :meth:`~Tensor.div`: writes the result into ``self`` and returns it.
        """
    def divide(self, other, *, rounding_mode = ...):
        """
        True division of ``input`` by ``other`` element by element (integers give the default float
        dtype); see :func:`floor_divide` for rounded quotients.
        
        See :func:`engine.div`.
        """
    def divide_(self, other, *, rounding_mode = ...):
        """
        In-place version of :meth:`~Tensor.div`: writes the result into ``self`` and returns it.
        """
    def dot(self, arg0: Tensor) -> Tensor:
        """
        Dot product of two 1-D tensors of the same length and dtype, a 0-d tensor.
        
        See :func:`engine.dot`.
        """
    def double(self) -> Tensor:
        """
        double(memory_format=engine.preserve_format) -> Tensor
        
        ``self.to(engine.float64)``: the tensor as float64 (itself if it already is).
        """
    def element_size(self) -> int:
        """
        element_size() -> int
        
        The size of one element in bytes.
        
        Example::
        
            >>> engine.zeros(1, dtype=engine.float64).element_size()
            8
        """
    def eq(self, arg0: typing.Any) -> Tensor:
        """
        Tells, element by element, whether ``input`` is equal to ``other``, as a bool tensor.
        
        See :func:`engine.eq`.
        """
    def eq_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.eq`.
        """
    def erf(self) -> Tensor:
        """
        Error function :math:`\\frac{2}{\\sqrt{\\pi}} \\int_0^x e^{-t^2} dt` of each element.
        
        See :func:`engine.erf`.
        """
    def erf_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.erf`: writes the result into ``self`` and returns it.
        """
    def erfc(self) -> Tensor:
        """
        Complementary error function :math:`1 - \\mathrm{erf}(x)` of each element, accurate where
        ``erf`` is close to 1.
        
        See :func:`engine.erfc`.
        """
    def erfc_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.erfc`.
        """
    def erfinv(self) -> Tensor:
        """
        Inverse error function of each element: ``y`` with ``erf(y) = x``, for x in (-1, 1).
        
        See :func:`engine.erfinv`.
        """
    def erfinv_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.erfinv`.
        """
    def exp(self) -> Tensor:
        """
        Exponential :math:`e^x` of each element.
        
        See :func:`engine.exp`.
        """
    def exp2(self) -> Tensor:
        """
        Base-2 exponential :math:`2^x` of each element.
        
        See :func:`engine.exp2`.
        """
    def exp2_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.exp2`: writes the result into ``self`` and returns it.
        """
    def exp_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.exp`: writes the result into ``self`` and returns it.
        """
    def expand(self, *args) -> Tensor:
        """
        expand(*sizes) -> Tensor
        
        A view with size-1 dimensions repeated to ``sizes`` without copying (their stride becomes 0);
        -1 keeps a size and new dimensions may be added in front. Writing into the result writes the
        shared elements several times: :meth:`clone` it first.
        
        Args:
            *sizes (ints or a tuple): the target shape.
        
        Example::
        
            >>> engine.tensor([[1], [2]]).expand(2, 3)
            tensor([[1, 1, 1],
                    [2, 2, 2]])
        """
    def expand_as(self, other: Tensor) -> Tensor:
        """
        expand_as(other) -> Tensor
        
        ``self.expand(other.size())``.
        
        Args:
            other (Tensor): the tensor whose shape is taken.
        
        Example::
        
            >>> engine.tensor([1]).expand_as(engine.zeros(3))
            tensor([1, 1, 1])
        """
    def expm1(self) -> Tensor:
        """
        Computes :math:`e^x - 1` for each element, accurately for small ``x``.
        
        See :func:`engine.expm1`.
        """
    def expm1_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.expm1`: writes the result into ``self`` and returns it.
        """
    def exponential_(self, lambd = 1.0, *, generator = None):
        """
        Fills self with Exponential(lambd) samples: ``-1 / lambd * log1p(-u)``.
        """
    def fill_(self, value: typing.Any) -> Tensor:
        """
        fill_(value) -> Tensor
        
        Fills this tensor with ``value`` and returns it.
        
        Args:
            value (Number or 0-d Tensor): the value.
        
        Example::
        
            >>> engine.zeros(2).fill_(3)
            tensor([3., 3.])
        """
    def fill_diagonal_(self, fill_value, wrap = False):
        """
        Fills the main diagonal (all dims equal, or a tall/wide matrix) in place; with wrap, a
            tall matrix's diagonal restarts every ncols + 1 rows.
        """
    def float(self) -> Tensor:
        """
        float(memory_format=engine.preserve_format) -> Tensor
        
        ``self.to(engine.float32)``: the tensor as float32 (itself if it already is).
        """
    def float_power_(self, exponent):
        """
        In-place ``float_power``: self must already be float64, as in PyTorch.
        """
    def floor(self) -> Tensor:
        """
        Largest integer not greater than each element (integer tensors are returned unchanged).
        
        See :func:`engine.floor`.
        """
    def floor_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.floor`: writes the result into ``self`` and returns it.
        """
    def floor_divide(self, other: typing.Any) -> Tensor:
        """
        Divides ``input`` by ``other`` and rounds the quotient down (Python's ``//``).
        
        See :func:`engine.floor_divide`.
        """
    def floor_divide_(self, other: typing.Any) -> Tensor:
        """
        In-place version of :meth:`~Tensor.floor_divide`: writes the result into ``self`` and returns it.
        """
    def fmax(self, other: typing.Any) -> Tensor:
        """
        Element-wise maximum that ignores NaN: where one side is NaN the other is taken.
        
        See :func:`engine.fmax`.
        """
    def fmin(self, other: typing.Any) -> Tensor:
        """
        Element-wise minimum that ignores NaN: where one side is NaN the other is taken.
        
        See :func:`engine.fmin`.
        """
    def fmod(self, other: typing.Any) -> Tensor:
        """
        Remainder of the division, with the sign of the dividend (C's ``fmod``).
        
        See :func:`engine.fmod`.
        """
    def fmod_(self, other: typing.Any) -> Tensor:
        """
        In-place version of :meth:`~Tensor.fmod`: writes the result into ``self`` and returns it.
        """
    def frac(self) -> Tensor:
        """
        Fractional part of each element, ``input - trunc(input)`` (it keeps the sign).
        
        See :func:`engine.frac`.
        """
    def frac_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.frac`.
        """
    def frexp(self) -> typing.Any:
        """
        Splits each element into a mantissa in [0.5, 1) (in magnitude) and an int32 exponent, so that
        ``input = mantissa * 2 ** exponent``.
        
        See :func:`engine.frexp`.
        """
    def gather(self, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor) -> Tensor:
        """
        Takes values of ``input`` along ``dim`` at the positions in ``index``: for ``dim=1``,
        ``out[i][j] = input[i][index[i][j]]``.
        
        See :func:`engine.gather`.
        """
    def gcd(self, other: typing.Any) -> Tensor:
        """
        Greatest common divisor of each pair of integers (non-negative).
        
        See :func:`engine.gcd`.
        """
    def gcd_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.gcd`.
        """
    def ge(self, arg0: typing.Any) -> Tensor:
        """
        Tells, element by element, whether ``input`` is greater than or equal to ``other``, as a bool
        tensor.
        
        See :func:`engine.ge`.
        """
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
        """
        Tells, element by element, whether ``input`` is greater than ``other``, as a bool tensor.
        
        See :func:`engine.greater`.
        """
    def gt_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.gt`.
        """
    def half(self) -> Tensor:
        """
        half(memory_format=engine.preserve_format) -> Tensor
        
        ``self.to(engine.float16)``: the tensor as float16 (itself if it already is).
        """
    def heaviside(self, values: typing.Any) -> Tensor:
        """
        Heaviside step function: 0 where ``input < 0``, 1 where ``input > 0``, and ``values`` where
        ``input == 0``.
        
        See :func:`engine.heaviside`.
        """
    def heaviside_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.heaviside`.
        """
    def hypot(self, other: typing.Any) -> Tensor:
        """
        Hypotenuse :math:`\\sqrt{input^2 + other^2}` of each pair, without overflow.
        
        See :func:`engine.hypot`.
        """
    def hypot_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.hypot`.
        """
    def i0(self) -> Tensor:
        """
        Modified Bessel function of the first kind of order 0, :math:`I_0(x)`, of each element.
        
        See :func:`engine.i0`.
        """
    def i0_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.i0`.
        """
    def igamma(self, other: typing.Any) -> Tensor:
        """
        Regularized lower incomplete gamma function :math:`P(input, other)`.
        
        See :func:`engine.igamma`.
        """
    def igamma_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.igamma`.
        """
    def igammac(self, other: typing.Any) -> Tensor:
        """
        Regularized upper incomplete gamma function :math:`Q(input, other) = 1 - P`.
        
        See :func:`engine.igammac`.
        """
    def igammac_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.igammac`.
        """
    def index_add(self, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor, source: Tensor, *, alpha: typing.SupportsFloat | typing.SupportsIndex = 1.0) -> Tensor:
        """
        A copy of ``input`` to which ``alpha * source`` is added at the positions ``index`` along
        ``dim``; repeated indices accumulate.
        
        See :func:`engine.index_add`.
        """
    def index_add_(self, *args, **kwargs):
        """
        In-place version of :meth:`~Tensor.index_add`: writes the result into ``self`` and returns it.
        """
    def index_copy(self, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor, source: Tensor) -> Tensor:
        """
        A copy of ``input`` whose entries along ``dim`` at the positions ``index`` are replaced by
        those of ``source``.
        
        See :func:`engine.index_copy`.
        """
    def index_copy_(self, *args, **kwargs):
        """
        In-place version of :meth:`~Tensor.index_copy`: writes the result into ``self`` and returns it.
        """
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
        """
        The entries of ``input`` along ``dim`` at the positions in the 1-D ``index``, copied into a new
        tensor.
        
        See :func:`engine.index_select`.
        """
    def int(self) -> Tensor:
        """
        int(memory_format=engine.preserve_format) -> Tensor
        
        ``self.to(engine.int32)``: the tensor as int32 (itself if it already is).
        """
    def is_contiguous(self, memory_format = ...):
        """
        is_contiguous(memory_format=engine.contiguous_format) -> bool
        
        Whether the elements lie in memory in row-major order without gaps.
        
        Example::
        
            >>> x = engine.zeros(2, 3)
            >>> x.is_contiguous(), x.t().is_contiguous()
            (True, False)
        """
    def is_floating_point(self) -> bool:
        """
        Whether ``input``'s dtype is a floating-point type (float16, bfloat16, float32, float64).
        
        See :func:`engine.is_floating_point`.
        """
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
        """
        Bool tensor telling which elements of ``input`` are finite (neither infinite nor NaN).
        
        See :func:`engine.isfinite`.
        """
    def isinf(self) -> Tensor:
        """
        Bool tensor telling which elements of ``input`` are positive or negative infinity.
        
        See :func:`engine.isinf`.
        """
    def isnan(self) -> Tensor:
        """
        Bool tensor telling which elements of ``input`` are NaN.
        
        See :func:`engine.isnan`.
        """
    def item(self) -> typing.Any:
        """
        item() -> number
        
        The value of a one-element tensor as a Python number (``float``, ``int`` or ``bool``).
        
        Example::
        
            >>> engine.tensor([2.5]).item()
            2.5
        """
    def lcm(self, other: typing.Any) -> Tensor:
        """
        Least common multiple of each pair of integers (non-negative).
        
        See :func:`engine.lcm`.
        """
    def lcm_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.lcm`.
        """
    def ldexp_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.ldexp`.
        """
    def le(self, arg0: typing.Any) -> Tensor:
        """
        Tells, element by element, whether ``input`` is less than or equal to ``other``, as a bool
        tensor.
        
        See :func:`engine.le`.
        """
    def le_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.le`.
        """
    def lerp(self, end: Tensor, weight: typing.Any) -> Tensor:
        """
        Linear interpolation ``input + weight * (end - input)``, broadcasting all three.
        
        See :func:`engine.lerp`.
        """
    def lerp_(self, end: Tensor, weight: typing.Any) -> Tensor:
        """
        In-place version of :meth:`~Tensor.lerp`: writes the result into ``self`` and returns it.
        """
    def less_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.lt`.
        """
    def less_equal_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.le`.
        """
    def lgamma(self) -> Tensor:
        """
        Natural logarithm of the absolute value of the gamma function of each element.
        
        See :func:`engine.lgamma`.
        """
    def lgamma_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.lgamma`.
        """
    def log(self) -> Tensor:
        """
        Natural logarithm of each element; ``-inf`` at 0 and NaN below it.
        
        See :func:`engine.log`.
        """
    def log10(self) -> Tensor:
        """
        Base-10 logarithm of each element.
        
        See :func:`engine.log10`.
        """
    def log10_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.log10`: writes the result into ``self`` and returns it.
        """
    def log1p(self) -> Tensor:
        """
        Computes :math:`\\log(1 + x)` for each element, accurately for small ``x``.
        
        See :func:`engine.log1p`.
        """
    def log1p_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.log1p`: writes the result into ``self`` and returns it.
        """
    def log2(self) -> Tensor:
        """
        Base-2 logarithm of each element.
        
        See :func:`engine.log2`.
        """
    def log2_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.log2`: writes the result into ``self`` and returns it.
        """
    def log_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.log`: writes the result into ``self`` and returns it.
        """
    def log_normal_(self, mean = 1.0, std = 2.0, *, generator = None):
        """
        Fills self with samples whose logarithm is Normal(mean, std).
        """
    def log_softmax(self, dim, dtype = None):
        """
        Logarithm of the softmax along ``dim``, ``x - logsumexp(x, dim)`` (see
            :func:`engine.nn.functional.log_softmax`).
        
            Args:
                dim (int): the dimension normalised.
                dtype (engine.dtype, optional): the dtype the tensor is cast to first.
        
            Example::
        
                >>> engine.tensor([0.0, 0.0]).log_softmax(0)
                tensor([-0.6931, -0.6931])
            
        """
    def logaddexp(self, other: typing.Any) -> Tensor:
        """
        Computes :math:`\\log(e^{input} + e^{other})` without overflow.
        
        See :func:`engine.logaddexp`.
        """
    def logaddexp2(self, other: typing.Any) -> Tensor:
        """
        Computes :math:`\\log_2(2^{input} + 2^{other})` without overflow.
        
        See :func:`engine.logaddexp2`.
        """
    def logical_and(self, other: typing.Any) -> Tensor:
        """
        Logical AND of each pair of elements, zero read as ``False``; a bool tensor.
        
        See :func:`engine.logical_and`.
        """
    def logical_and_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.logical_and`.
        """
    def logical_not(self) -> Tensor:
        """
        Logical negation of each element (zero is ``False``); a bool tensor.
        
        See :func:`engine.logical_not`.
        """
    def logical_not_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.logical_not`: writes the result into ``self`` and returns it.
        """
    def logical_or(self, other: typing.Any) -> Tensor:
        """
        Logical OR of each pair of elements, zero read as ``False``; a bool tensor.
        
        See :func:`engine.logical_or`.
        """
    def logical_or_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.logical_or`.
        """
    def logical_xor(self, other: typing.Any) -> Tensor:
        """
        Logical XOR of each pair of elements, zero read as ``False``; a bool tensor.
        
        See :func:`engine.logical_xor`.
        """
    def logical_xor_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.logical_xor`.
        """
    def logit(self, eps: typing.SupportsFloat | typing.SupportsIndex | None = None) -> Tensor:
        """
        Logit :math:`\\log(p / (1 - p))` of each element.
        
        See :func:`engine.logit`.
        """
    def logit_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.logit`.
        """
    def logsumexp(self, dim: typing.Any, keepdim: bool = False) -> Tensor:
        """
        Computes :math:`\\log \\sum_i e^{x_i}` over ``dim`` without overflow (the largest element is
        subtracted first).
        
        See :func:`engine.logsumexp`.
        """
    def long(self) -> Tensor:
        """
        long(memory_format=engine.preserve_format) -> Tensor
        
        ``self.to(engine.int64)``: the tensor as int64 (itself if it already is).
        """
    def lt(self, arg0: typing.Any) -> Tensor:
        """
        Tells, element by element, whether ``input`` is less than ``other``, as a bool tensor.
        
        See :func:`engine.less`.
        """
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
    def masked_fill_(self, mask, value):
        """
        In-place version of :meth:`~Tensor.masked_fill`: writes the result into ``self`` and returns it.
        """
    def masked_scatter_(self, *args, **kwargs):
        """
        In-place ``masked_scatter``: writes the result into self.
        """
    def matmul(self, other: Tensor) -> Tensor:
        """
        Matrix product with NumPy's rules: 1-D by 1-D is a dot product, 2-D by 2-D a matrix product, a
        1-D operand is read as a row (left) or column (right) vector and that dimension removed
        afterwards, and batch dimensions (all but the last two) broadcast.
        
        See :func:`engine.matmul`.
        """
    def max(self, dim: typing.Any = None, keepdim: bool = False) -> typing.Any:
        """
        Without ``dim``, the largest element as a 0-d tensor.
        
        See :func:`engine.max`.
        """
    def maximum(self, arg0: typing.Any) -> Tensor:
        """
        Element-wise maximum of ``input`` and ``other``; NaN wins (see :func:`fmax`).
        
        See :func:`engine.maximum`.
        """
    def maximum_(self, other: typing.Any) -> Tensor:
        """
        In-place version of :meth:`~Tensor.maximum`: writes the result into ``self`` and returns it.
        """
    def mean(self, dim: typing.Any = None, keepdim: bool = False, *, dtype: typing.Any = None) -> Tensor:
        """
        Arithmetic mean of all elements of ``input``, or over the dimension(s) ``dim``.
        
        See :func:`engine.mean`.
        """
    def min(self, dim: typing.Any = None, keepdim: bool = False) -> typing.Any:
        """
        Without ``dim``, the smallest element as a 0-d tensor.
        
        See :func:`engine.min`.
        """
    def minimum(self, arg0: typing.Any) -> Tensor:
        """
        Element-wise minimum of ``input`` and ``other``; NaN wins (see :func:`fmin`).
        
        See :func:`engine.minimum`.
        """
    def minimum_(self, other: typing.Any) -> Tensor:
        """
        In-place version of :meth:`~Tensor.minimum`: writes the result into ``self`` and returns it.
        """
    def mm(self, mat2: Tensor) -> Tensor:
        """
        Matrix product of two 2-D tensors, ``(n, m) @ (m, p) -> (n, p)``, without broadcasting (see
        :func:`matmul`).
        
        See :func:`engine.mm`.
        """
    def mul(self, other: typing.Any) -> Tensor:
        """
        Multiplies ``input`` by ``other`` element by element.
        
        See :func:`engine.mul`.
        """
    def mul_(self, other: typing.Any) -> Tensor:
        """
        In-place version of :meth:`~Tensor.mul`: writes the result into ``self`` and returns it.
        """
    def mv(self, arg0: Tensor) -> Tensor:
        """
        Product of the matrix ``input`` (n, m) and the vector ``vec`` (m,), a vector (n,).
        
        See :func:`engine.mv`.
        """
    def mvlgamma_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.mvlgamma`.
        """
    def nan_to_num_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.nan_to_num`.
        """
    def narrow(self, dim: typing.SupportsInt | typing.SupportsIndex, start: typing.SupportsInt | typing.SupportsIndex, length: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
        """
        A view of ``length`` elements of ``input`` along ``dim``, from ``start``.
        
        See :func:`engine.narrow`.
        """
    def ne(self, arg0: typing.Any) -> Tensor:
        """
        Tells, element by element, whether ``input`` is not equal to ``other``, as a bool tensor.
        
        See :func:`engine.ne`.
        """
    def ne_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.ne`.
        """
    def neg(self) -> Tensor:
        """
        Negation (``-input``) of each element.
        
        See :func:`engine.neg`.
        """
    def neg_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.neg`: writes the result into ``self`` and returns it.
        """
    def nelement(self) -> int:
        """
        nelement() -> int
        
        The number of elements; alias of :meth:`numel`.
        
        Example::
        
            >>> engine.zeros(2, 3).nelement()
            6
        """
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
        A tensor of shape ``size`` filled with ``fill_value``, with this tensor's dtype unless
            ``dtype`` is given.
        
            Args:
                size (list or tuple of ints): the shape.
                fill_value (Number): the value.
        
            Keyword args:
                dtype (engine.dtype, optional): the result's dtype. Default: ``self.dtype``.
                device (str or engine.device, optional): only ``'cpu'`` is supported.
                requires_grad (bool): whether autograd records operations on it. Default: ``False``.
        
            Example::
        
                >>> engine.tensor([1.0]).new_full((2,), 7)
                tensor([7., 7.])
            
        """
    def new_ones(self, *size, dtype = None, device = None, requires_grad = False, **kwargs):
        """
        A tensor of ones of shape ``size``, with this tensor's dtype unless ``dtype`` is given.
        
            Args:
                *size (ints or a tuple): the shape.
        
            Keyword args:
                dtype (engine.dtype, optional): the result's dtype. Default: ``self.dtype``.
                device (str or engine.device, optional): only ``'cpu'`` is supported.
                requires_grad (bool): whether autograd records operations on it. Default: ``False``.
        
            Example::
        
                >>> engine.zeros(1, dtype=engine.float64).new_ones(3)
                tensor([1., 1., 1.], dtype=torch.float64)
            
        """
    def new_tensor(self, data, *, dtype = None, device = None, requires_grad = False):
        """
        A new tensor holding a copy of ``data``, with this tensor's dtype unless ``dtype`` is
            given (like :func:`engine.tensor`, which infers the dtype from the data instead).
        
            Args:
                data: a number, (nested) list or tuple, NumPy array or tensor.
        
            Keyword args:
                dtype (engine.dtype, optional): the result's dtype. Default: ``self.dtype``.
                device (str or engine.device, optional): only ``'cpu'`` is supported.
                requires_grad (bool): whether autograd records operations on it. Default: ``False``.
        
            Example::
        
                >>> engine.zeros(1, dtype=engine.float64).new_tensor([1, 2])
                tensor([1., 2.], dtype=torch.float64)
            
        """
    def new_zeros(self, *size, dtype = None, device = None, requires_grad = False, **kwargs):
        """
        A tensor of zeros of shape ``size``, with this tensor's dtype unless ``dtype`` is given.
        
            Args:
                *size (ints or a tuple): the shape.
        
            Keyword args:
                dtype (engine.dtype, optional): the result's dtype. Default: ``self.dtype``.
                device (str or engine.device, optional): only ``'cpu'`` is supported.
                requires_grad (bool): whether autograd records operations on it. Default: ``False``.
        
            Example::
        
                >>> engine.tensor([1, 2]).new_zeros(2, 2)
                tensor([[0, 0],
                        [0, 0]])
            
        """
    def nextafter(self, other: typing.Any) -> Tensor:
        """
        The next floating-point value after ``input`` in the direction of ``other``.
        
        See :func:`engine.nextafter`.
        """
    def nextafter_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.nextafter`.
        """
    def normal_(self, mean: typing.SupportsFloat | typing.SupportsIndex = 0.0, std: typing.SupportsFloat | typing.SupportsIndex = 1.0, *, generator: typing.Any = None) -> Tensor:
        """
        normal_(mean=0, std=1, *, generator=None) -> Tensor
        
        Fills this tensor with values drawn from the normal distribution N(``mean``, ``std``²) and
        returns it.
        
        Args:
            mean (float): the mean. Default: 0.
            std (float): the standard deviation. Default: 1.
        
        Keyword args:
            generator (engine.Generator, optional): the generator to draw from.
        
        Example::
        
            >>> engine.empty(3).normal_(5, 0).tolist()
            [5.0, 5.0, 5.0]
        """
    def not_equal_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.ne`.
        """
    def numel(self) -> int:
        """
        The number of elements of ``input``, the product of its sizes.
        
        See :func:`engine.numel`.
        """
    def numpy(self, force: bool = False) -> numpy.ndarray:
        """
        numpy(*, force=False) -> numpy.ndarray
        
        A NumPy array sharing the tensor's memory. Tensors that require grad refuse unless
        ``force=True`` (which detaches first, as PyTorch does).
        
        Keyword args:
            force (bool): detach (and copy where needed) instead of refusing.
        
        Example::
        
            >>> engine.tensor([1.0, 2.0]).numpy()
            array([1., 2.], dtype=float32)
        """
    def outer(self, vec2: Tensor) -> Tensor:
        """
        See :func:`engine.ger`.
        """
    def permute(self, *args) -> Tensor:
        """
        A view of ``input`` with its dimensions reordered: dimension ``i`` of the result is dimension
        ``dims[i]`` of the input.
        
        See :func:`engine.permute`.
        """
    def polygamma(self, n: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
        """
        The ``n``-th derivative of the digamma function of each element (``n = 0`` is ``digamma``).
        
        See :func:`engine.polygamma`.
        """
    def polygamma_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.polygamma`.
        """
    def pow(self, exponent: typing.Any) -> Tensor:
        """
        Raises each element of ``input`` to the power ``exponent`` (a number or a broadcasting tensor).
        
        See :func:`engine.pow`.
        """
    def pow_(self, exponent: typing.Any) -> Tensor:
        """
        In-place version of :meth:`~Tensor.pow`: writes the result into ``self`` and returns it.
        """
    def prod(self, dim: typing.Any = None, keepdim: bool = False, *, dtype: typing.Any = None) -> Tensor:
        """
        Product of all elements, or over ``dim``.
        
        See :func:`engine.prod`.
        """
    def put_(self, *args, **kwargs):
        """
        In-place ``put``: writes the result into self.
        """
    def rad2deg(self) -> Tensor:
        """
        Converts each element from radians to degrees.
        
        See :func:`engine.rad2deg`.
        """
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
        """
        Reciprocal :math:`1 / x` of each element.
        
        See :func:`engine.reciprocal`.
        """
    def reciprocal_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.reciprocal`: writes the result into ``self`` and returns it.
        """
    def register_hook(self, hook):
        """
        register_hook(hook) -> RemovableHandle
        
        Registers ``hook(grad)``, called with this tensor's gradient each time backward computes it.
        The hook may return a new gradient, which replaces it (for the accumulation into ``grad`` and
        for the rest of the graph), or ``None`` to keep it. The handle's ``remove()`` unregisters it.
        
        Args:
            hook (callable): ``hook(grad) -> Tensor or None``.
        
        Example::
        
            >>> x = engine.tensor([1.0, 2.0], requires_grad=True)
            >>> handle = x.register_hook(lambda grad: grad * 10)
            >>> (x * 2).sum().backward()
            >>> x.grad
            tensor([20., 20.])
            >>> handle.remove()
        """
    def register_post_accumulate_grad_hook(self, hook):
        """
        register_post_accumulate_grad_hook(hook) -> RemovableHandle
        
        Registers ``hook(tensor)`` on a leaf, called after backward has accumulated the gradient into
        its :attr:`grad`; useful to update a parameter as soon as its gradient is ready (an optimizer
        step inside backward, gradient all-reduce).
        
        Args:
            hook (callable): ``hook(tensor) -> None``.
        
        Example::
        
            >>> w = engine.tensor([1.0], requires_grad=True)
            >>> _ = w.register_post_accumulate_grad_hook(lambda p: print(p.grad))
            >>> (w * 3).sum().backward()
            tensor([3.])
        """
    def relu(self) -> Tensor:
        """
        Rectified linear unit: each element, or 0 where it is negative.
        
        See :func:`engine.relu`.
        """
    def relu_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.relu`: writes the result into ``self`` and returns it.
        """
    def remainder(self, other: typing.Any) -> Tensor:
        """
        Remainder of the division, with the sign of the divisor (Python's ``%``).
        
        See :func:`engine.remainder`.
        """
    def remainder_(self, other: typing.Any) -> Tensor:
        """
        In-place version of :meth:`~Tensor.remainder`: writes the result into ``self`` and returns it.
        """
    def renorm_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.renorm`.
        """
    def repeat(self, *sizes, repeats = None):
        """
        repeat(*repeats) -> Tensor
        
        A new tensor with this one tiled ``repeats[i]`` times along dimension ``i`` (extra leading
        entries add dimensions). Unlike :meth:`expand` it copies.
        
        Args:
            *repeats (ints or a tuple): the number of copies along each dimension.
        
        Example::
        
            >>> engine.tensor([1, 2]).repeat(2, 2)
            tensor([[1, 2, 1, 2],
                    [1, 2, 1, 2]])
        """
    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """
        requires_grad_(requires_grad=True) -> Tensor
        
        Sets :attr:`requires_grad` of this leaf tensor in place and returns it.
        
        Args:
            requires_grad (bool): whether autograd should record operations on it.
        
        Example::
        
            >>> engine.zeros(2).requires_grad_().requires_grad
            True
        """
    def reshape(self, *args) -> Tensor:
        """
        A tensor with ``input``'s elements in the given shape: a view when the strides allow, otherwise
        a copy.
        
        See :func:`engine.reshape`.
        """
    def reshape_as(self, other: Tensor) -> Tensor:
        """
        reshape_as(other) -> Tensor
        
        ``self.reshape(other.size())``: a view when possible, else a copy.
        
        Args:
            other (Tensor): the tensor whose shape is taken.
        
        Example::
        
            >>> engine.arange(4).reshape_as(engine.zeros(2, 2)).shape
            torch.Size([2, 2])
        """
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
        """
        retain_grad() -> None
        
        Makes this non-leaf tensor keep its gradient in :attr:`grad` during :meth:`backward` (leaves
        always do).
        
        Example::
        
            >>> x = engine.tensor([1.0, 2.0], requires_grad=True)
            >>> y = x * 3
            >>> y.retain_grad()
            >>> y.sum().backward()
            >>> y.grad
            tensor([1., 1.])
        """
    def round(self, *, decimals: typing.SupportsInt | typing.SupportsIndex = 0) -> Tensor:
        """
        Rounds each element to the nearest integer, halves to even (as NumPy and PyTorch do), or to
        ``decimals`` decimal places.
        
        See :func:`engine.round`.
        """
    def round_(self, *, decimals: typing.SupportsInt | typing.SupportsIndex = 0) -> Tensor:
        """
        In-place version of :meth:`~Tensor.round`: writes the result into ``self`` and returns it.
        """
    def rsqrt(self) -> Tensor:
        """
        Reciprocal of the square root of each element, :math:`1 / \\sqrt{x}`.
        
        See :func:`engine.rsqrt`.
        """
    def rsqrt_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.rsqrt`: writes the result into ``self`` and returns it.
        """
    def scatter(self, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor, src: typing.Any = None, *, value: typing.Any = None, reduce: typing.Any = None) -> typing.Any:
        """
        Out-of-place :meth:`Tensor.scatter_`: a copy of ``input`` where, for ``dim=0``,
        ``out[index[i][j]][j] = src[i][j]``; ``src`` may be a number.
        
        See :func:`engine.scatter`.
        """
    def scatter_(self, *args, **kwargs):
        """
        scatter_(dim, index, src, *, reduce=None) -> Tensor
        
        Writes the values of ``src`` into this tensor at the positions in ``index`` along ``dim`` (for
        ``dim=0``, ``self[index[i][j]][j] = src[i][j]``) and returns it. ``src`` may be a number. With
        ``reduce='add'`` or ``'multiply'`` the values are combined with the ones present instead.
        
        Args:
            dim (int): the axis to index along.
            index (LongTensor): the positions.
            src (Tensor or Number): the values to write.
        
        Keyword args:
            reduce (str, optional): ``'add'`` or ``'multiply'``.
        
        Example::
        
            >>> engine.zeros(3).scatter_(0, engine.tensor([2]), engine.tensor([5.0]))
            tensor([0., 0., 5.])
        """
    def scatter_add(self, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor, src: Tensor) -> Tensor:
        """
        Like :func:`scatter` but adds the values of ``src`` to the indexed positions, summing repeated
        indices.
        
        See :func:`engine.scatter_add`.
        """
    def scatter_add_(self, *args, **kwargs):
        """
        In-place version of :meth:`~Tensor.scatter_add`: writes the result into ``self`` and returns it.
        """
    def scatter_reduce_(self, *args, **kwargs):
        """
        In-place ``scatter_reduce``: writes the result into self.
        """
    def select(self, dim: typing.SupportsInt | typing.SupportsIndex, index: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
        """
        A view of ``input`` at position ``index`` along ``dim``, without that dimension (``input[:,
        index]`` for ``dim=1``).
        
        See :func:`engine.select`.
        """
    def set_(self, *args, **kwargs):
        """
        set_(source=None, storage_offset=0, size=None, stride=None) -> Tensor
        
        Makes this tensor look at ``source``'s memory, in place, and returns it: with ``source`` alone,
        with its shape, strides and offset; with ``storage_offset`` and ``size`` (and ``stride``,
        contiguous when omitted), with that geometry in ``source``'s memory; with no argument, at fresh
        empty memory of shape ``(0,)``. The tensor keeps its identity and version counter (moved on by
        one); a leaf gets a new gradient accumulator, so graphs recorded before no longer count as
        using it.
        
        Args:
            source (Tensor): the tensor whose memory to use (same dtype).
            storage_offset (int): offset, in elements, into that memory.
            size (tuple of ints): the new shape.
            stride (tuple of ints, optional): the new strides, in elements.
        
        Example::
        
            >>> a = engine.arange(6.0)
            >>> engine.empty(0).set_(a, 1, (2, 2))
            tensor([[1., 2.],
                    [3., 4.]])
        """
    def sgn(self) -> Tensor:
        """
        ``z / abs(z)`` for each element of a complex ``input`` (0 where it is 0), and
        :func:`engine.sign` of a real one.
        
        See :func:`engine.sgn`.
        """
    def sgn_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.sgn`: writes the result into ``self`` and returns it.
        """
    def short(self) -> Tensor:
        """
        short(memory_format=engine.preserve_format) -> Tensor
        
        ``self.to(engine.int16)``: the tensor as int16 (itself if it already is).
        """
    def sigmoid(self) -> Tensor:
        """
        Logistic sigmoid :math:`1 / (1 + e^{-x})` of each element.
        
        See :func:`engine.sigmoid`.
        """
    def sigmoid_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.sigmoid`: writes the result into ``self`` and returns it.
        """
    def sign(self) -> Tensor:
        """
        Sign of each element: -1, 0 or 1 (in the input's dtype; ``False``/``True`` for bool).
        
        See :func:`engine.sign`.
        """
    def sign_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.sign`: writes the result into ``self`` and returns it.
        """
    def signbit(self) -> Tensor:
        """
        Whether the sign bit of each element is set, as a bool tensor (``True`` for ``-0.0``).
        
        See :func:`engine.signbit`.
        """
    def sin(self) -> Tensor:
        """
        Sine of each element (in radians).
        
        See :func:`engine.sin`.
        """
    def sin_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.sin`: writes the result into ``self`` and returns it.
        """
    def sinc(self) -> Tensor:
        """
        Normalized sinc :math:`\\sin(\\pi x) / (\\pi x)` of each element, 1 at 0.
        
        See :func:`engine.sinc`.
        """
    def sinc_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.sinc`.
        """
    def sinh(self) -> Tensor:
        """
        Hyperbolic sine of each element.
        
        See :func:`engine.sinh`.
        """
    def sinh_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.sinh`: writes the result into ``self`` and returns it.
        """
    def size(self, dim = None):
        """
        size(dim=None) -> Size or int
        
        The shape as a :class:`engine.Size`, or the size of dimension ``dim``.
        
        Args:
            dim (int, optional): the dimension whose size is returned.
        
        Example::
        
            >>> x = engine.zeros(2, 3)
            >>> x.size()
            torch.Size([2, 3])
            >>> x.size(-1)
            3
        """
    def softmax(self, dim, dtype = None):
        """
        Softmax along ``dim``: ``exp(x) / exp(x).sum(dim, keepdim=True)``, computed stably (see
            :func:`engine.nn.functional.softmax`).
        
            Args:
                dim (int): the dimension normalised.
                dtype (engine.dtype, optional): the dtype the tensor is cast to first.
        
            Example::
        
                >>> engine.tensor([0.0, 0.0]).softmax(0)
                tensor([0.5000, 0.5000])
            
        """
    def split(self, split_size, dim = 0):
        """
        ``Tensor.split`` (PyTorch names its size argument ``split_size`` on the method and
            ``split_size_or_sections`` on ``torch.split``).
        """
    def sqrt(self) -> Tensor:
        """
        Square root of each element; NaN where an element is negative.
        
        See :func:`engine.sqrt`.
        """
    def sqrt_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.sqrt`: writes the result into ``self`` and returns it.
        """
    def square_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.square`.
        """
    @typing.overload
    def squeeze(self, dim: typing.SupportsInt | typing.SupportsIndex | None = None) -> Tensor:
        ...
    @typing.overload
    def squeeze(self, dim: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> Tensor:
        """
        A view of ``input`` without its dimensions of size 1 (or only ``dim``, if it has size 1).
        
        See :func:`engine.squeeze`.
        """
    def squeeze_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.squeeze`: self becomes the view.
        """
    def std(self, dim: typing.Any = None, unbiased: typing.Any = None, keepdim: bool = False, *, correction: typing.Any = None) -> Tensor:
        """
        Standard deviation over ``dim`` (all elements by default): the square root of :func:`var`.
        
        See :func:`engine.std`.
        """
    def storage(self):
        """
        The memory block behind this tensor as a :class:`engine.TypedStorage` of its dtype
            (deprecated, as in PyTorch: warns once; :meth:`untyped_storage` is the replacement).
        """
    def storage_offset(self) -> int:
        """
        storage_offset() -> int
        
        The offset, in elements, of this tensor's first element in its storage (nonzero for views such
        as slices).
        
        Example::
        
            >>> engine.arange(6)[2:].storage_offset()
            2
        """
    def stride(self, dim: typing.Any = None) -> typing.Any:
        """
        stride(dim=None) -> tuple or int
        
        How many elements one step along each dimension skips in memory, or along ``dim``.
        
        Args:
            dim (int, optional): the dimension whose stride is returned.
        
        Example::
        
            >>> engine.zeros(2, 3).stride()
            (3, 1)
            >>> engine.zeros(2, 3).t().stride()
            (1, 3)
        """
    def sub(self, other: typing.Any, *, alpha: typing.Any = 1) -> Tensor:
        """
        Subtracts ``other``, scaled by ``alpha``, from ``input``.
        
        See :func:`engine.sub`.
        """
    def sub_(self, other: typing.Any, *, alpha: typing.Any = 1) -> Tensor:
        """
        In-place version of :meth:`~Tensor.sub`: writes the result into ``self`` and returns it.
        """
    def sum(self, dim: typing.Any = None, keepdim: bool = False, *, dtype: typing.Any = None) -> Tensor:
        """
        Sum of all elements of ``input`` as a 0-d tensor, or over the dimension(s) ``dim``.
        
        See :func:`engine.sum`.
        """
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
        """
        Transposes a tensor of at most 2 dimensions (0-d and 1-d tensors are returned as they are):
        ``transpose(input, 0, 1)``.
        
        See :func:`engine.t`.
        """
    def t_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.t`: self becomes the view.
        """
    def tan(self) -> Tensor:
        """
        Tangent of each element (in radians).
        
        See :func:`engine.tan`.
        """
    def tan_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.tan`: writes the result into ``self`` and returns it.
        """
    def tanh(self) -> Tensor:
        """
        Hyperbolic tangent of each element, in (-1, 1).
        
        See :func:`engine.tanh`.
        """
    def tanh_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.tanh`: writes the result into ``self`` and returns it.
        """
    def to(self, *args, memory_format = None, **kwargs):
        """
        to(dtype, non_blocking=False, copy=False) -> Tensor
        to(device=None, dtype=None, non_blocking=False, copy=False) -> Tensor
        to(other, non_blocking=False, copy=False) -> Tensor
        
        The tensor converted to ``dtype`` (and/or ``device``, or ``other``'s dtype). When nothing
        changes the tensor itself is returned, unless ``copy=True``. The conversion is differentiable.
        
        Args:
            dtype (engine.dtype): the target dtype.
            device (str or engine.device): only ``'cpu'`` is supported.
            other (Tensor): the tensor whose dtype is taken.
            copy (bool): always return a new tensor.
        
        Example::
        
            >>> engine.tensor([1.7, -1.7]).to(engine.int64)
            tensor([ 1, -1])
        """
    def to_dense(self, dtype = None, *, masked_grad = None):
        """
        A dense tensor is its own dense form (``self``, or a copy in ``dtype``).
        """
    def to_sparse(self, *args, **kwargs):
        """
        This tensor as a sparse COO tensor (see engine/_sparse.py).
        """
    def tolist(self) -> typing.Any:
        """
        tolist() -> list or number
        
        The tensor's values as nested Python lists of numbers (a number for a 0-d tensor).
        
        Example::
        
            >>> engine.tensor([[1, 2], [3, 4]]).tolist()
            [[1, 2], [3, 4]]
        """
    def transpose(self, dim0: typing.SupportsInt | typing.SupportsIndex, dim1: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
        """
        A view of ``input`` with dimensions ``dim0`` and ``dim1`` swapped; it shares memory with
        ``input``.
        
        See :func:`engine.transpose`.
        """
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
    def true_divide(self, other, *, rounding_mode = ...):
        """
        True division of ``input`` by ``other`` element by element (integers give the default float
        dtype); see :func:`floor_divide` for rounded quotients.
        
        See :func:`engine.div`.
        """
    def true_divide_(self, other, *, rounding_mode = ...):
        """
        In-place version of :meth:`~Tensor.div`: writes the result into ``self`` and returns it.
        """
    def trunc(self) -> Tensor:
        """
        See :func:`engine.fix`.
        """
    def trunc_(self) -> Tensor:
        """
        In-place version of :meth:`~Tensor.fix`: writes the result into ``self`` and returns it.
        """
    def type(self, dtype = None, non_blocking = False, **kwargs):
        """
        With no dtype, the legacy type name ('torch.FloatTensor'); otherwise this tensor as
            ``dtype`` (a dtype, a legacy class or its name), itself when nothing changes.
        """
    def type_as(self, other: Tensor) -> Tensor:
        """
        type_as(tensor) -> Tensor
        
        The tensor converted to ``tensor``'s dtype: ``self.to(tensor.dtype)``.
        
        Args:
            tensor (Tensor): the tensor whose dtype is taken.
        
        Example::
        
            >>> engine.tensor([1.5]).type_as(engine.tensor([1]))
            tensor([1])
        """
    def unfold(self, dimension: typing.SupportsInt | typing.SupportsIndex, size: typing.SupportsInt | typing.SupportsIndex, step: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
        """
        unfold(dimension, size, step) -> Tensor
        
        A view of all windows of ``size`` elements along ``dimension``, ``step`` apart; the windows
        index that dimension and a new last dimension of length ``size`` holds each.
        
        Args:
            dimension (int): the dimension to slide along.
            size (int): the window length.
            step (int): the distance between windows, > 0.
        
        Example::
        
            >>> engine.tensor([1, 2, 3, 4]).unfold(0, 2, 1)
            tensor([[1, 2],
                    [2, 3],
                    [3, 4]])
        """
    def uniform_(self, from_: typing.SupportsFloat | typing.SupportsIndex = 0.0, to: typing.SupportsFloat | typing.SupportsIndex = 1.0, *, generator: typing.Any = None) -> Tensor:
        """
        uniform_(from=0, to=1, *, generator=None) -> Tensor
        
        Fills this tensor with values drawn uniformly from [``from``, ``to``) and returns it.
        
        Args:
            from (float): the lower bound. Default: 0.
            to (float): the upper bound. Default: 1.
        
        Keyword args:
            generator (engine.Generator, optional): the generator to draw from.
        
        Example::
        
            >>> x = engine.empty(1000).uniform_(-2, 2)
            >>> bool(x.min() >= -2) and bool(x.max() < 2)
            True
        """
    def unsqueeze(self, dim: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
        """
        A view of ``input`` with a dimension of size 1 inserted at position ``dim`` (negative ``dim``
        counts from the end of the result).
        
        See :func:`engine.unsqueeze`.
        """
    def unsqueeze_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.unsqueeze`: self becomes the view.
        """
    def untyped_storage(self):
        """
        The memory block behind this tensor and its views, as an :class:`engine.UntypedStorage`.
        """
    def var(self, dim: typing.Any = None, unbiased: typing.Any = None, keepdim: bool = False, *, correction: typing.Any = None) -> Tensor:
        """
        Variance over ``dim`` (all elements by default): the mean squared deviation from the mean,
        divided by ``N - correction``.
        
        See :func:`engine.var`.
        """
    @typing.overload
    def view(self, *args) -> Tensor:
        ...
    @typing.overload
    def view(self, *, dtype: typing.Any) -> Tensor:
        """
        view(*shape) -> Tensor
        view(dtype) -> Tensor
        
        A tensor sharing this one's memory with another shape (one size may be -1). The strides must
        allow it (a contiguous tensor always does); otherwise use :meth:`reshape`. Given a dtype, the
        same bytes read as that dtype (no gradient flows through it): with a different element size the
        last dim (stride 1) grows or shrinks by the size ratio, as in PyTorch; as bool, bytes other
        than 0 and 1 raise (PyTorch would make an invalid bool tensor).
        
        Args:
            *shape (ints or a tuple): the new shape.
            dtype (engine.dtype): the element type.
        
        Example::
        
            >>> x = engine.arange(6)
            >>> v = x.view(2, 3)
            >>> v[0, 0] = 9
            >>> x[0]
            tensor(9)
            >>> engine.tensor([1.0]).view(engine.int32)
            tensor([1065353216], dtype=torch.int32)
        """
    def view_as(self, other: Tensor) -> Tensor:
        """
        view_as(other) -> Tensor
        
        ``self.view(other.size())``.
        
        Args:
            other (Tensor): the tensor whose shape is taken.
        
        Example::
        
            >>> engine.arange(4).view_as(engine.zeros(2, 2)).shape
            torch.Size([2, 2])
        """
    def where(self, condition: Tensor, other: typing.Any) -> Tensor:
        """
        where(condition, y) -> Tensor
        
        ``engine.where(condition, self, y)``: this tensor's elements where ``condition`` holds, ``y``'s
        elsewhere.
        
        Args:
            condition (BoolTensor): where to keep ``self``.
            y (Tensor or Number): the values elsewhere.
        
        Example::
        
            >>> x = engine.tensor([1.0, 3.0])
            >>> x.where(x > 2, 0.0)
            tensor([0., 3.])
        """
    def xlogy(self, other: typing.Any) -> Tensor:
        """
        Computes ``input * log(other)``, defined as 0 where ``input`` is 0 (unless ``other`` is NaN).
        
        See :func:`engine.xlogy`.
        """
    def xlogy_(self, *args, **kwargs):
        """
        In-place version of :meth:`Tensor.xlogy`.
        """
    def zero_(self) -> Tensor:
        """
        zero_() -> Tensor
        
        Fills this tensor with zeros and returns it.
        
        Example::
        
            >>> engine.ones(2).zero_()
            tensor([0., 0.])
        """
    @property
    def H(self):
        """
        Tensor.H -> Tensor
        
        The conjugate transpose of a matrix (for real tensors the transpose, :attr:`T` of a 2-D tensor).
        
        Example::
        
            >>> engine.tensor([[1, 2]]).H.shape
            torch.Size([2, 1])
        """
    @property
    def T(self):
        """
        Tensor.T -> Tensor
        
        The tensor with its dimensions reversed (``permute(n-1, ..., 0)``), a view. PyTorch deprecates
        it for tensors of other than 2 dimensions; prefer :attr:`mT`.
        
        Example::
        
            >>> engine.tensor([[1, 2]]).T
            tensor([[1],
                    [2]])
        """
    @property
    def __array_interface__(self) -> dict:
        """
        The tensor's memory described for NumPy (version 3 of the array interface).
        """
    @property
    def _base(self) -> Tensor:
        ...
    @property
    def _grad_fn(self) -> ...:
        ...
    @property
    def _shape(self) -> tuple:
        ...
    @property
    def _version(self) -> int:
        ...
    @property
    def data(self) -> Tensor:
        """
        Tensor.data -> Tensor
        
        The same data outside autograd: a tensor sharing memory that does not require grad. Assigning a
        tensor to ``x.data`` replaces x's contents. Prefer :meth:`detach` and :class:`engine.no_grad`,
        which autograd can check.
        """
    @data.setter
    def data(self, arg1: typing.Any) -> None:
        ...
    @property
    def device(self):
        """
        The device the tensor lives on: the CPU, or the meta device (no data).
        """
    @property
    def dtype(self) -> typing.Any:
        """
        Tensor.dtype -> engine.dtype
        
        The tensor's element type.
        
        Example::
        
            >>> engine.tensor([1, 2]).dtype
            torch.int64
        """
    @property
    def grad(self) -> Tensor | None:
        """
        Tensor.grad -> Tensor or None
        
        The gradient accumulated into this leaf tensor by :meth:`backward` (``None`` until the first
        backward). Settable, e.g. to ``None`` to reset it. Non-leaf tensors keep one only after
        :meth:`retain_grad`.
        
        Example::
        
            >>> x = engine.tensor([1.0, 2.0], requires_grad=True)
            >>> (x * x).sum().backward()
            >>> x.grad
            tensor([2., 4.])
        """
    @grad.setter
    def grad(self, arg1: typing.Any) -> None:
        ...
    @property
    def grad_dtype(self) -> typing.Any:
        """
        Tensor.grad_dtype -> dtype or None
        
        The dtype of the gradient of this leaf tensor: the gradient backward computes is cast to it
        before it is accumulated into :attr:`grad`, and assigning :attr:`grad` a tensor of another
        dtype is refused. By default it is the tensor's own dtype; ``None`` keeps gradients in whatever
        dtype they arrive. Only leaves have it (reading or setting it on another tensor raises), and it
        cannot be changed to a dtype other than that of a gradient already present.
        
        Example::
        
            >>> x = engine.tensor([1.0, 2.0], requires_grad=True)
            >>> x.grad_dtype
            torch.float32
            >>> x.grad_dtype = engine.float64
            >>> (x * 2).sum().backward()
            >>> x.grad.dtype
            torch.float64
        """
    @grad_dtype.setter
    def grad_dtype(self, arg1: typing.Any) -> None:
        ...
    @property
    def grad_fn(self) -> typing.Any:
        """
        Tensor.grad_fn -> Node or None
        
        The autograd node that made this tensor (``None`` for leaves and tensors outside the graph).
        Its ``next_functions`` lead to the inputs' nodes.
        
        Example::
        
            >>> x = engine.ones(2, requires_grad=True)
            >>> type((x * 2).grad_fn).__name__
            'MulBackward0'
        """
    @property
    def imag(self):
        """
        The imaginary part of a complex tensor, as a view (an error for real tensors).
        """
    @imag.setter
    def imag(self, value):
        ...
    @property
    def is_cpu(self):
        """
        Tensor.is_cpu -> bool
        
        Whether the tensor lives in CPU memory (always ``True``).
        """
    @property
    def is_leaf(self) -> bool:
        """
        Tensor.is_leaf -> bool
        
        Whether the tensor is a leaf of the autograd graph: it does not require grad, or it requires
        grad and was made by the user (not by an operation). Only leaves get :attr:`grad` filled in by
        default.
        
        Example::
        
            >>> x = engine.ones(2, requires_grad=True)
            >>> x.is_leaf, (x * 2).is_leaf
            (True, False)
        """
    @property
    def is_meta(self):
        """
        True for a tensor on the meta device: a shape, strides and a dtype, and no data.
        """
    @property
    def is_sparse(self):
        """
        Whether this is a sparse tensor: False for dense ones (see ``engine.sparse_coo_tensor``).
        """
    @property
    def itemsize(self):
        """
        Bytes per element.
        """
    @property
    def layout(self):
        """
        Tensor.layout -> engine.layout
        
        The memory layout: always ``engine.strided`` (dense tensors with strides).
        
        Example::
        
            >>> engine.zeros(1).layout
            torch.strided
        """
    @property
    def mH(self):
        """
        Tensor.mH -> Tensor
        
        The conjugate transpose of each matrix in a batch (for real tensors the same as :attr:`mT`).
        
        Example::
        
            >>> engine.zeros(5, 2, 3).mH.shape
            torch.Size([5, 3, 2])
        """
    @property
    def mT(self):
        """
        Tensor.mT -> Tensor
        
        A view with the last two dimensions swapped: the transpose of each matrix in a batch.
        
        Example::
        
            >>> engine.zeros(5, 2, 3).mT.shape
            torch.Size([5, 3, 2])
        """
    @property
    def nbytes(self):
        """
        Bytes of the tensor's elements.
        """
    @property
    def ndim(self) -> int:
        """
        Tensor.ndim -> int
        
        The number of dimensions; the same as :meth:`dim`.
        
        Example::
        
            >>> engine.zeros(2, 3).ndim
            2
        """
    @property
    def output_nr(self) -> int:
        """
        Tensor.output_nr -> int
        
        The position of this tensor among the outputs of its :attr:`grad_fn` (0 for leaves).
        """
    @property
    def real(self):
        """
        The real part of a complex tensor, as a view (a real tensor is its own real part).
        """
    @real.setter
    def real(self, value):
        ...
    @property
    def requires_grad(self) -> bool:
        """
        Tensor.requires_grad -> bool
        
        Whether autograd records operations on this tensor so that gradients can flow to it. Settable
        on leaf tensors only (see :meth:`requires_grad_`).
        
        Example::
        
            >>> x = engine.ones(2)
            >>> x.requires_grad = True
            >>> (x * 2).requires_grad
            True
        """
    @requires_grad.setter
    def requires_grad(self, arg1: bool) -> None:
        ...
    @property
    def retains_grad(self) -> bool:
        """
        Tensor.retains_grad -> bool
        
        Whether :meth:`retain_grad` was called on this non-leaf tensor, so that backward fills its
        :attr:`grad`.
        """
    @property
    def shape(self):
        """
        Tensor.shape -> Size
        
        The sizes of the tensor's dimensions, a :class:`engine.Size` (a tuple); the same as
        :meth:`size`.
        
        Example::
        
            >>> engine.zeros(2, 3).shape
            torch.Size([2, 3])
        """
    @property
    def volatile(self):
        """
        Always False (PyTorch 0.3's flag, replaced by ``no_grad``); warns as PyTorch does.
        """
    @volatile.setter
    def volatile(self, value):
        ...
class Node:
    """
    A node of the autograd graph: what ``tensor.grad_fn`` is for the result of a built-in operation
    (``MulBackward0``, ``SumBackward0``, ...) and, for leaves, the ``AccumulateGrad`` node that
    writes their ``grad``. Nodes link to their inputs' nodes through :attr:`next_functions` and
    accept hooks (:meth:`register_hook`, :meth:`register_prehook`).
    """
    @staticmethod
    def __new__(type, *args, **kwargs):
        """
        Create and return a new object.  See help(type) for accurate signature.
        """
    def __call__(self, *args) -> typing.Any:
        ...
    def __getattr__(self, arg0: str) -> typing.Any:
        ...
    def __reduce__(self):
        ...
    def __reduce_ex__(self, protocol):
        ...
    def __repr__(self) -> str:
        ...
    def name(self) -> str:
        """
        name() -> str
        
        The node's type name, such as ``'MulBackward0'``.
        
        Example::
        
            >>> x = engine.ones(2, requires_grad=True)
            >>> (x * 2).grad_fn.name()
            'MulBackward0'
        """
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
        """
        next_functions -> tuple of (Node, int)
        
        The edges toward the inputs: for each input of the operation, the node that receives its
        gradient (``AccumulateGrad`` for a leaf, ``None`` for an input that needs none) and the input
        number there. Walking them from ``loss.grad_fn`` visits the graph.
        
        Example::
        
            >>> x = engine.ones(2, requires_grad=True)
            >>> [type(n).__name__ for n, _ in (x * 2).sum().grad_fn.next_functions]
            ['MulBackward0']
        """
    @property
    def variable(self) -> typing.Any:
        """
        variable -> Tensor
        
        For an ``AccumulateGrad`` node: the leaf tensor whose ``grad`` it accumulates into.
        """
class SavedTensor:
    """
    A tensor a node saved for its backward (grad_fn._raw_saved_self, ...): register_hooks(pack, unpack) to store it otherwise, .data and .unpack_hook to inspect it. Only nodes make them.
    """
    @staticmethod
    def __new__(type, *args, **kwargs):
        """
        Create and return a new object.  See help(type) for accurate signature.
        """
    def __init__(self) -> None:
        ...
    def register_hooks(self, pack_hook: typing.Any, unpack_hook: typing.Any = None) -> None:
        """
        Packs this saved tensor with pack_hook now; backward reads it back through unpack_hook.
        """
    @property
    def data(self) -> typing.Any:
        """
        The saved data: what the pack hook returned, or the tensor kept.
        """
    @property
    def unpack_hook(self) -> typing.Any:
        """
        The unpack hook this saved tensor will be read back through, or None.
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
    """
    The context object of a custom :class:`Function`: ``forward`` (or ``setup_context``) stores on
    it what ``backward`` needs, with :meth:`save_for_backward` for tensors and plain attributes for
    the rest, and declares in-place or non-differentiable outputs. After the call it is also the
    outputs' ``grad_fn``.
    """
    @staticmethod
    def __new__(type, *args, **kwargs):
        """
        Create and return a new object.  See help(type) for accurate signature.
        """
    def __init__(self) -> None:
        ...
    def __reduce__(self):
        ...
    def __reduce_ex__(self, protocol):
        ...
    def _release_saved_tensors(self) -> None:
        ...
    def mark_dirty(self, *args) -> None:
        """
        mark_dirty(*tensors) -> None
        
        Declares the inputs ``forward`` modified in place (and returns as outputs), so that autograd
        updates their history. Call it in ``forward`` or ``setup_context``.
        
        Args:
            *tensors (Tensor): the inputs changed in place.
        """
    def mark_non_differentiable(self, *args) -> None:
        """
        mark_non_differentiable(*tensors) -> None
        
        Declares outputs that have no gradient (indices, masks): they get ``requires_grad=False``, and
        ``backward`` always receives zeros for them.
        
        Args:
            *tensors (Tensor): outputs of ``forward``.
        """
    def save_for_backward(self, *args) -> None:
        """
        save_for_backward(*tensors) -> None
        
        Saves tensors (or ``None``) for :meth:`Function.backward`, which reads them back as
        :attr:`saved_tensors`. Call it at most once, in ``forward`` or ``setup_context``. Saving
        through it, rather than as ctx attributes, lets autograd check that they were not modified in
        place before backward, and frees them once backward has run.
        
        Args:
            *tensors (Tensor or None): the inputs, outputs or intermediates backward needs.
        
        Example::
        
            >>> class Square(engine.autograd.Function):
            ...     @staticmethod
            ...     def forward(ctx, x):
            ...         ctx.save_for_backward(x)
            ...         return x * x
            ...     @staticmethod
            ...     def backward(ctx, grad):
            ...         (x,) = ctx.saved_tensors
            ...         return 2 * x * grad
            >>> x = engine.tensor([3.0], requires_grad=True)
            >>> Square.apply(x).backward()
            >>> x.grad
            tensor([6.])
        """
    def set_materialize_grads(self, arg0: bool) -> None:
        """
        set_materialize_grads(value) -> None
        
        Whether ``backward`` receives zero tensors (``True``, the default) or ``None`` for the outputs
        whose gradient is undefined, e.g. outputs that did not take part in the loss.
        
        Args:
            value (bool): materialize undefined gradients as zeros.
        """
    @property
    def _raw_saved_tensors(self) -> tuple:
        ...
    @property
    def needs_input_grad(self) -> tuple:
        """
        ctx.needs_input_grad -> tuple of bool
        
        One flag per input of ``forward``: whether that input is a tensor that requires grad.
        ``backward`` may skip computing the gradients nobody needs (and return ``None``).
        """
    @property
    def next_functions(self) -> tuple:
        """
        ctx.next_functions -> tuple of (Node, int)
        
        The graph edges of this node: for each input of ``forward``, the node that receives its
        gradient and the input number there (``(None, 0)`` for inputs that need none).
        """
    @property
    def saved_tensors(self) -> tuple:
        """
        ctx.saved_tensors -> tuple
        
        The tensors given to :meth:`save_for_backward`, in order. Raises if one of them was modified in
        place since (its version changed), or if they were already freed by a backward without
        ``retain_graph=True``.
        """
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
    """
    Generator(device='cpu') -> Generator
    
    A random number generator: the state behind :func:`rand`, :func:`randn`, dropout and the
    samplers, which all take one through ``generator=``. Seeded alike, it draws the same numbers as
    PyTorch's CPU generator. :data:`engine.default_generator` is the one used when none is given.
    
    Args:
        device (str or engine.device): only ``'cpu'`` is supported.
    
    Example::
    
        >>> g = engine.Generator().manual_seed(0)
        >>> engine.rand(2, generator=g)
        tensor([0.4963, 0.7682])
    """
    @staticmethod
    def __new__(type, *args, **kwargs):
        """
        Create and return a new object.  See help(type) for accurate signature.
        """
    def __init__(self, device: typing.Any = None) -> None:
        ...
    def __reduce__(self):
        ...
    def __reduce_ex__(self, protocol):
        ...
    def clone_state(self):
        """
        A new generator in the same state.
        """
    def get_state(self) -> Tensor:
        """
        The generator's state as a uint8 tensor (PyTorch's 5056-byte layout).
        """
    def initial_seed(self) -> int:
        """
        initial_seed() -> int
        
        The seed the generator was last seeded with.
        """
    def manual_seed(self, arg0: int) -> typing.Any:
        """
        manual_seed(seed) -> Generator
        
        Seeds the generator (resetting its state) and returns it.
        
        Args:
            seed (int): the seed.
        
        Example::
        
            >>> g = engine.Generator()
            >>> g.manual_seed(7).initial_seed()
            7
        """
    def seed(self):
        """
        Seeds this generator from the operating system's entropy and returns the seed.
        """
    def set_state(self, new_state: Tensor) -> typing.Any:
        """
        Restores a state from get_state() (or from torch's get_rng_state()).
        """
    @property
    def device(self):
        """
        The generator's device: always the CPU.
        """
def _adaptive_avg_pool(input: Tensor, output_size: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> Tensor:
    ...
def _adaptive_max_pool(input: Tensor, output_size: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> tuple[Tensor, Tensor]:
    ...
def _add_docstr(function: typing.Any, text: str) -> None:
    """
    Appends `text` to a native function's docstring.
    """
def _aminmax(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex | None, keepdim: bool) -> tuple[Tensor, Tensor]:
    ...
def _avg_pool(input: Tensor, kernel_size: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], stride: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], padding: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], ceil_mode: bool, count_include_pad: bool, divisor_override: typing.SupportsInt | typing.SupportsIndex | None) -> Tensor:
    ...
def _cached_bytes() -> int:
    """
    Bytes of large buffers held idle by the caching allocator.
    """
def _call_unrouted(function: typing.Any, *args, **kwargs) -> typing.Any:
    """
    Calls `function(*args, **kwargs)` without the routing of `_route_unmarked`.
    """
def _col2im(input: Tensor, output_size: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], kernel_size: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], dilation: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], padding: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], stride: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> Tensor:
    ...
def _complex_angle(input: Tensor) -> Tensor:
    ...
def _conj_physical(input: Tensor) -> Tensor:
    ...
def _current_anomaly_parent() -> typing.Any:
    ...
def _current_graph_task_id() -> int:
    ...
def _enable_meta_routing() -> None:
    """
    Routes calls on meta tensors to the handler from now on (set once the meta device is used).
    """
def _enter_transform() -> int:
    """
    Counts one more open transform; returns how many are open.
    """
def _exit_transform() -> int:
    """
    Counts one transform closed; returns how many are still open.
    """
def _fast_slots_installed() -> bool:
    """
    Whether Tensor's arithmetic operators run through the native number slots (a check for tests).
    """
def _from_dlpack(data: typing.Any) -> Tensor:
    """
    A tensor sharing the memory of a DLPack capsule, which it consumes.
    """
def _function_apply(cls, *args, **kwargs):
    """
    Runs the custom Function `cls` on the arguments: Function.apply's native body.
    
    apply(*args, **kwargs) -> Tensor or tuple
    
    Runs the Function: calls :meth:`forward` with grad mode off (and :meth:`setup_context` if the
    class defines it), then, when grad mode is on and some tensor input requires grad, attaches a
    node to the outputs whose backward calls :meth:`backward`. Call ``MyFunction.apply(x)``, never
    ``forward`` directly.
    
    Example::
    
        >>> class Double(engine.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         return x * 2
        ...     @staticmethod
        ...     def backward(ctx, grad):
        ...         return grad * 2
        >>> x = engine.tensor([1.0, 3.0], requires_grad=True)
        >>> y = Double.apply(x)
        >>> y.sum().backward()
        >>> x.grad
        tensor([2., 2.])
    """
def _gradient_edge(arg0: Tensor) -> tuple[typing.Any, int]:
    ...
def _im2col(input: Tensor, kernel_size: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], dilation: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], padding: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], stride: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> Tensor:
    ...
def _imag(input: Tensor) -> Tensor:
    ...
def _increment_version(arg0: typing.Any) -> None:
    ...
def _inplace_apply(self: Tensor, fn: collections.abc.Callable, others: collections.abc.Sequence[Tensor]) -> Tensor:
    ...
def _is_checkpoint_valid() -> bool:
    ...
def _kthvalue_positions(rows: Tensor, k: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
    """
    (rows,) int64 position of each row's k-th smallest value, as PyTorch's CPU kthvalue picks it.
    """
def _lapack_available() -> bool:
    """
    Whether this build links a LAPACK.
    """
def _lapack_cholesky(A: Tensor, upper: bool) -> tuple[Tensor, Tensor]:
    """
    (factor, info) of potrf.
    """
def _lapack_det(A: Tensor) -> Tensor:
    """
    Determinants from getrf's factors.
    """
def _lapack_eigh(A: Tensor, upper: bool, vectors: bool) -> tuple[Tensor, Tensor, Tensor]:
    """
    (eigenvalues, eigenvectors, info) of syevd.
    """
def _lapack_geqrf(A: Tensor) -> tuple[Tensor, Tensor]:
    """
    (a, tau) of geqrf.
    """
def _lapack_inv(A: Tensor) -> tuple[Tensor, Tensor]:
    """
    (inverse, info) of getrf and getrs on the identity.
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
def _lapack_qr(A: Tensor, mode: str) -> tuple[Tensor, Tensor]:
    """
    (Q, R) of geqrf and orgqr; mode 'r' (Q empty), 's' (reduced) or 'c' (complete).
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
def _log_softmax(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
    """
    log_softmax along dim as one node (LogSoftmaxBackward0) that saves its result.
    """
def _mark_multi_output_views(arg0: collections.abc.Sequence[Tensor], arg1: str) -> None:
    ...
def _max_pool(input: Tensor, kernel_size: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], stride: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], padding: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], dilation: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], ceil_mode: bool) -> tuple[Tensor, Tensor]:
    ...
def _meta_alias(base: Tensor, size: typing.Any, stride: typing.Any, storage_offset: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
    """
    A view of `base`'s storage with the given layout (no autograd history).
    """
def _meta_empty_strided(size: typing.Any, stride: typing.Any, dtype: typing.Any, storage_offset: typing.SupportsInt | typing.SupportsIndex = 0) -> Tensor:
    """
    A meta tensor (no memory) of the given size, strides (None: contiguous), dtype and offset.
    """
def _meta_is(tensor: Tensor) -> bool:
    """
    Whether `tensor` lives on the meta device.
    """
def _name_grad_fn(arg0: Tensor, arg1: str) -> None:
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
def _randperm_stream(n: typing.SupportsInt | typing.SupportsIndex, generator: typing.Any = None) -> Tensor:
    ...
def _real(input: Tensor) -> Tensor:
    ...
def _record_addc(out: Tensor, divide: bool, input: Tensor, tensor1: Tensor, tensor2: Tensor, value: typing.Any) -> Tensor:
    """
    Makes `out`, addcmul (addcdiv with divide) computed without recording, the output of AddcmulBackward0 (AddcdivBackward0).
    """
def _record_addmm(out: Tensor, input: Tensor, mat1: Tensor, mat2: Tensor, beta: typing.SupportsFloat | typing.SupportsIndex, alpha: typing.SupportsFloat | typing.SupportsIndex) -> Tensor:
    """
    Makes `out`, computed without recording, the output of addmm's AddmmBackward0 node.
    """
def _record_dist(out: Tensor, input: Tensor, other: Tensor, p: typing.SupportsFloat | typing.SupportsIndex) -> Tensor:
    """
    Makes `out`, dist computed without recording, the output of DistBackward0 (finite p > 0).
    """
def _record_index(arg0: Tensor, arg1: Tensor, arg2: Tensor, arg3: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], arg4: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], arg5: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], arg6: collections.abc.Sequence[Tensor | None]) -> None:
    ...
def _record_loss(out: Tensor, kind: str, reduction: typing.SupportsInt | typing.SupportsIndex, input: Tensor, target: Tensor, weight: Tensor | None = None, pos_weight: Tensor | None = None, total_weight: Tensor | None = None, beta: typing.SupportsFloat | typing.SupportsIndex = 1.0, ignore_index: typing.SupportsInt | typing.SupportsIndex = -100) -> Tensor:
    """
    Makes `out`, a loss computed without recording, the output of the loss's node (MseLossBackward0, SmoothL1LossBackward0, BinaryCrossEntropyBackward0, BinaryCrossEntropyWithLogitsBackward0, NllLossBackward0); kind: mse, smooth_l1, bce, bce_logits or nll; reduction: 0 none, 1 mean, 2 sum.
    """
def _record_masked_fill(out: Tensor, input: Tensor, mask: Tensor, value: Tensor, tensor_value: bool) -> Tensor:
    """
    Makes `out`, masked_fill computed without recording, the output of MaskedFillBackward0, or of MaskedFillBackward1 for a value given as a 0-d tensor (tensor_value).
    """
def _record_masked_select(out: Tensor, input: Tensor, mask: Tensor, positions: Tensor) -> Tensor:
    """
    Makes `out`, masked_select computed without recording, the output of MaskedSelectBackward0.
    """
def _record_median_all(out: Tensor, input: Tensor) -> Tensor:
    """
    Makes `out`, median() computed without recording, the output of MedianBackward0.
    """
def _record_not_implemented(out: Tensor, input: Tensor, node_name: str, op: str) -> Tensor:
    ...
def _record_repeat(out: Tensor, input: Tensor, repeats: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> Tensor:
    """
    Makes `out`, repeat computed without recording, the output of RepeatBackward0.
    """
def _record_roll(out: Tensor, input: Tensor, shifts: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], dims: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> Tensor:
    """
    Makes `out`, roll computed without recording, the output of RollBackward0.
    """
def _record_take(out: Tensor, input: Tensor, index: Tensor, flat_positions: Tensor) -> Tensor:
    """
    Makes `out`, take computed without recording, the output of TakeBackward0; flat_positions: the non-negative row-major positions taken.
    """
def _record_trace(out: Tensor, input: Tensor) -> Tensor:
    """
    Makes `out`, trace computed without recording, the output of TraceBackward0.
    """
def _record_value_selection(out: Tensor, name: str, input: Tensor, indices: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, given_dim: typing.SupportsInt | typing.SupportsIndex, keepdim: bool) -> Tensor:
    """
    Makes `out` (values picked along dim, computed without recording) the output of KthvalueBackward0 or MedianBackward1.
    """
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
def _route_meta_factory(function: typing.Any) -> None:
    """
    Routes calls of factory `function` to the handler while the default device is meta.
    """
def _route_unmarked(function: typing.Any, condition: typing.SupportsInt | typing.SupportsIndex) -> None:
    """
    Routes calls of `function` to the transform handler while counter `condition` is positive, marked arguments or not.
    """
def _run_backward(outputs: collections.abc.Sequence[typing.Any], grad_outputs: collections.abc.Sequence[typing.Any], keep_graph: bool, create_graph: bool, inputs: collections.abc.Sequence[typing.Any], allow_unused: bool, accumulate: bool) -> typing.Any:
    ...
def _set_anomaly_enabled(arg0: bool, arg1: bool) -> None:
    ...
def _set_default_meta(on: bool) -> None:
    """
    Routes the `_route_meta_factory` functions to the handler while the default device is meta.
    """
def _set_grad_enabled(arg0: bool) -> None:
    ...
def _set_inference_mode(arg0: bool) -> None:
    ...
def _set_route_counter(condition: typing.SupportsInt | typing.SupportsIndex, value: typing.SupportsInt | typing.SupportsIndex) -> None:
    """
    Sets the counter that `_route_unmarked` functions check.
    """
def _set_transform_dispatch_paused(paused: bool) -> bool:
    """
    Pauses (or resumes) transform dispatch on this thread; returns the previous setting.
    """
def _set_transform_handler(handler: typing.Any) -> None:
    """
    Installs handler(function, args, kwargs), called for native calls on marked tensors.
    """
def _set_transform_state(tensor: Tensor, state: typing.Any) -> None:
    """
    Attaches `state` to `tensor` (None detaches it).
    """
def _show_saved(arg0: Tensor, arg1: str, arg2: typing.Any) -> None:
    ...
def _show_saved_only(arg0: Tensor) -> None:
    """
    The node of `t` shows only the values given to _show_saved (an op composed of others).
    """
def _simd_level() -> str:
    """
    The instruction set of the vectorised loops in use (ENGINE_SIMD=scalar forces 'baseline').
    """
def _slice(arg0: Tensor, arg1: typing.SupportsInt | typing.SupportsIndex, arg2: typing.SupportsInt | typing.SupportsIndex | None, arg3: typing.SupportsInt | typing.SupportsIndex | None, arg4: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
    ...
def _softmax(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
    """
    softmax along dim as one node (SoftmaxBackward0) that saves its result.
    """
def _special_i1(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def _split_pieces(input: Tensor, lengths: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], dim: typing.SupportsInt | typing.SupportsIndex, kind: typing.SupportsInt | typing.SupportsIndex, split_size: typing.SupportsInt | typing.SupportsIndex = 0) -> tuple:
    ...
def _storage_bytes(tensor: Tensor) -> Tensor:
    """
    A 1-D uint8 tensor over the whole of `tensor`'s storage, sharing it.
    """
def _storage_data_ptr(tensor: Tensor) -> int:
    """
    The address of `tensor`'s storage (0 on the meta device).
    """
def _storage_id(tensor: Tensor) -> int:
    """
    An identity of `tensor`'s storage, equal for all tensors sharing it.
    """
def _storage_nbytes(tensor: Tensor) -> int:
    """
    The size in bytes of `tensor`'s storage.
    """
def _tensor_register_hook(arg0: Tensor, arg1: typing.Any) -> typing.Any:
    ...
def _tensor_register_post_accumulate_grad_hook(arg0: Tensor, arg1: typing.Any) -> typing.Any:
    ...
def _threshold_(input: Tensor, threshold: typing.SupportsFloat | typing.SupportsIndex, value: typing.SupportsFloat | typing.SupportsIndex) -> Tensor:
    ...
def _to_dlpack(data: Tensor, *, dl_device: typing.Any = None, copy: typing.Any = None) -> typing_extensions.CapsuleType:
    """
    The tensor as a DLPack capsule named 'dltensor' (DLPack < 1.0), sharing its memory.
    """
def _to_dlpack_versioned(data: Tensor, *, dl_device: typing.Any = None, copy: typing.Any = None) -> typing_extensions.CapsuleType:
    """
    The tensor as a DLPack capsule named 'dltensor_versioned' (DLPack 1.0), sharing its memory.
    """
def _topk_positions(rows: Tensor, k: typing.SupportsInt | typing.SupportsIndex, largest: bool, sorted: bool) -> Tensor:
    """
    (rows, k) int64 positions of each row's top k, as PyTorch's CPU topk picks them.
    """
def _transform_state(tensor: Tensor) -> typing.Any:
    """
    The object a function transform attached to `tensor` (None if none did).
    """
def _unbind(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex) -> tuple:
    ...
def _var_mean(input: Tensor, dim: typing.Any, correction: typing.Any, keepdim: bool, is_std: bool) -> tuple[Tensor, Tensor]:
    ...
def _will_engine_execute_node(arg0: typing.Any) -> bool:
    ...
def _with_div_mode_history(quotient: Tensor, input: Tensor, other: typing.Any, rounding_mode: str | None) -> Tensor:
    ...
def abs(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    abs(input, *, out=None) -> Tensor
    
    Absolute value of each element of ``input``. Alias: :func:`engine.absolute`.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.abs(engine.tensor([-1.5, 0.0, 2.0]))
        tensor([1.5000, 0.0000, 2.0000])
    """
def acos(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    acos(input, *, out=None) -> Tensor
    
    Arccosine of each element, in radians; NaN outside [-1, 1]. Alias: :func:`engine.arccos`.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.acos(engine.tensor([1.0, 0.0]))
        tensor([0.0000, 1.5708])
    """
def acosh(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    acosh(input, *, out=None) -> Tensor
    
    Inverse hyperbolic cosine of each element; NaN below 1. Alias: :func:`engine.arccosh`.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.acosh(engine.tensor([1.0, 2.0]))
        tensor([0.0000, 1.3170])
    """
def add(input: typing.Any, other: typing.Any, *, alpha: typing.Any = 1, out: typing.Any = None) -> typing.Any:
    """
    add(input, other, *, alpha=1, out=None) -> Tensor
    
    Adds ``other``, scaled by ``alpha``, to ``input``: :math:`input + alpha \\times other`.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the tensor or number to add.
    
    Keyword args:
        alpha (Number): the multiplier for ``other``.
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> a = engine.tensor([1.0, 2.0])
        >>> engine.add(a, 10)
        tensor([11., 12.])
        >>> engine.add(a, engine.tensor([[1.0], [2.0]]), alpha=2)
        tensor([[3., 4.],
                [5., 6.]])
    """
def all(input: Tensor, dim: typing.Any = None, keepdim: bool = False, *, out: typing.Any = None) -> typing.Any:
    """
    all(input, dim=None, keepdim=False) -> Tensor
    
    Tests whether all elements (or all along ``dim``) are non-zero; a bool tensor.
    
    Args:
        input (Tensor): the input tensor.
        dim (int or tuple of ints, optional): the dimension(s) to reduce. Default: all.
        keepdim (bool): whether the reduced dimensions are kept with size 1. Default: ``False``.
    
    Example::
    
        >>> engine.all(engine.tensor([[1, 0], [1, 1]]), dim=1)
        tensor([False,  True])
    """
def amax(input: Tensor, dim: typing.Any = (), keepdim: bool = False, *, out: typing.Any = None) -> typing.Any:
    """
    amax(input, dim=None, keepdim=False) -> Tensor
    
    Maximum over ``dim`` (all dimensions by default); unlike :func:`max` it returns no indices, and
    its gradient is shared evenly between tied maxima.
    
    Args:
        input (Tensor): the input tensor.
        dim (int or tuple of ints, optional): the dimension(s) to reduce. Default: all.
        keepdim (bool): whether the reduced dimensions are kept with size 1. Default: ``False``.
    
    Example::
    
        >>> engine.amax(engine.tensor([[1.0, 3.0], [4.0, 0.0]]), dim=0)
        tensor([4., 3.])
    """
def amin(input: Tensor, dim: typing.Any = (), keepdim: bool = False, *, out: typing.Any = None) -> typing.Any:
    """
    amin(input, dim=None, keepdim=False) -> Tensor
    
    Minimum over ``dim`` (all dimensions by default); unlike :func:`min` it returns no indices, and
    its gradient is shared evenly between tied minima.
    
    Args:
        input (Tensor): the input tensor.
        dim (int or tuple of ints, optional): the dimension(s) to reduce. Default: all.
        keepdim (bool): whether the reduced dimensions are kept with size 1. Default: ``False``.
    
    Example::
    
        >>> engine.amin(engine.tensor([[1.0, 3.0], [4.0, 0.0]]), dim=1)
        tensor([1., 0.])
    """
def any(input: Tensor, dim: typing.Any = None, keepdim: bool = False, *, out: typing.Any = None) -> typing.Any:
    """
    any(input, dim=None, keepdim=False) -> Tensor
    
    Tests whether any element (or any along ``dim``) is non-zero; a bool tensor.
    
    Args:
        input (Tensor): the input tensor.
        dim (int or tuple of ints, optional): the dimension(s) to reduce. Default: all.
        keepdim (bool): whether the reduced dimensions are kept with size 1. Default: ``False``.
    
    Example::
    
        >>> engine.any(engine.tensor([[0, 0], [1, 0]]), dim=1)
        tensor([False,  True])
    """
def arange(*args, **kwargs) -> Tensor:
    """
    arange(start=0, end, step=1, *, dtype=None, device=None, requires_grad=False) -> Tensor
    
    A 1-D tensor of the values from ``start`` (included) to ``end`` (excluded) spaced by ``step``:
    :math:`\\lceil (end - start) / step \\rceil` elements. With one argument it is ``end``. The dtype
    is int64 when all three are integers, else the default float dtype.
    
    Args:
        start (Number): the first value. Default: 0.
        end (Number): the bound, excluded.
        step (Number): the gap between neighbours, non-zero. Default: 1.
    
    Keyword args:
        dtype (engine.dtype, optional): the result's dtype. Default: the default dtype
            (:func:`get_default_dtype`), or inferred from the arguments where stated.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool, optional): whether autograd records operations on the result.
            Default: ``False``.
    
    Example::
    
        >>> engine.arange(5)
        tensor([0, 1, 2, 3, 4])
        >>> engine.arange(1, 2.5, 0.5)
        tensor([1.0000, 1.5000, 2.0000])
    """
def argmax(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex | None = None, keepdim: bool = False, *, out: typing.Any = None) -> typing.Any:
    """
    argmax(input, dim=None, keepdim=False) -> Tensor
    
    Index of the largest element: of the flattened tensor, or along ``dim``. The first index wins
    among ties; int64.
    
    Args:
        input (Tensor): the input tensor.
        dim (int, optional): the dimension to reduce. Default: the flattened tensor.
        keepdim (bool): whether ``dim`` is kept with size 1. Default: ``False``.
    
    Example::
    
        >>> engine.argmax(engine.tensor([[1, 5], [7, 2]]), dim=1)
        tensor([1, 0])
    """
def argmin(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex | None = None, keepdim: bool = False, *, out: typing.Any = None) -> typing.Any:
    """
    argmin(input, dim=None, keepdim=False) -> Tensor
    
    Index of the smallest element: of the flattened tensor, or along ``dim``. The first index wins
    among ties; int64.
    
    Args:
        input (Tensor): the input tensor.
        dim (int, optional): the dimension to reduce. Default: the flattened tensor.
        keepdim (bool): whether ``dim`` is kept with size 1. Default: ``False``.
    
    Example::
    
        >>> engine.argmin(engine.tensor([[1, 5], [7, 2]]))
        tensor(0)
    """
def as_strided(input: Tensor, size: typing.Any, stride: typing.Any, storage_offset: typing.Any = None) -> Tensor:
    """
    as_strided(input, size, stride, storage_offset=None) -> Tensor
    
    A view of ``input``'s memory with the given ``size``, ``stride`` and ``storage_offset`` (in
    elements, from the start of the memory ``input`` views; by default ``input``'s own offset). It
    may repeat elements (a stride of 0) or reach elements that ``input`` itself does not show; the
    view must stay inside the memory. Its gradient is summed where the view repeats an element and
    reaches only ``input``'s own elements (``AsStridedBackward0``). Prefer ``view``, ``expand`` and
    slicing where they suffice.
    
    Args:
        input (Tensor): the input tensor.
        size (tuple of ints): the view's shape.
        stride (tuple of ints): the view's strides, non-negative.
        storage_offset (int, optional): the view's first element in the memory.
    
    Example::
    
        >>> x = engine.arange(6.0)
        >>> engine.as_strided(x, (2, 2), (1, 2), 1)
        tensor([[1., 3.],
                [2., 4.]])
    """
def asin(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    asin(input, *, out=None) -> Tensor
    
    Arcsine of each element, in radians; NaN outside [-1, 1]. Alias: :func:`engine.arcsin`.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.asin(engine.tensor([0.0, 1.0]))
        tensor([0.0000, 1.5708])
    """
def asinh(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    asinh(input, *, out=None) -> Tensor
    
    Inverse hyperbolic sine of each element. Alias: :func:`engine.arcsinh`.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.asinh(engine.tensor([0.0, 1.0]))
        tensor([0.0000, 0.8814])
    """
def atan(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    atan(input, *, out=None) -> Tensor
    
    Arctangent of each element, in radians. Alias: :func:`engine.arctan`.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.atan(engine.tensor([0.0, 1.0]))
        tensor([0.0000, 0.7854])
    """
def atan2(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    atan2(input, other, *, out=None) -> Tensor
    
    Arctangent of ``input / other`` that takes the quadrant from both signs, in radians in [-pi,
    pi]. Alias: :func:`engine.arctan2`.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the x coordinate.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.atan2(engine.tensor([1.0, 1.0]), engine.tensor([1.0, -1.0]))
        tensor([0.7854, 2.3562])
    """
def atanh(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    atanh(input, *, out=None) -> Tensor
    
    Inverse hyperbolic tangent of each element; ``±inf`` at ±1, NaN beyond. Alias:
    :func:`engine.arctanh`.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.atanh(engine.tensor([0.0, 0.5]))
        tensor([0.0000, 0.5493])
    """
def bitwise_and(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    bitwise_and(input, other, *, out=None) -> Tensor
    
    Bitwise AND of each pair of elements (integer or bool tensors).
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.bitwise_and(engine.tensor([5, 4]), engine.tensor([3, 2]))
        tensor([1, 0])
    """
def bitwise_left_shift(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    bitwise_left_shift(input, other, *, out=None) -> Tensor
    
    Each element shifted left by ``other`` bits (integer or bool tensors).
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.bitwise_left_shift(engine.tensor([5, 4]), engine.tensor([2, 2]))
        tensor([20, 16])
    """
def bitwise_not(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    bitwise_not(input, *, out=None) -> Tensor
    
    Bitwise NOT of each element of an integer or bool tensor.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.bitwise_not(engine.tensor([0, 5]))
        tensor([-1, -6])
    """
def bitwise_or(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    bitwise_or(input, other, *, out=None) -> Tensor
    
    Bitwise OR of each pair of elements (integer or bool tensors).
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.bitwise_or(engine.tensor([5, 4]), engine.tensor([3, 2]))
        tensor([7, 6])
    """
def bitwise_right_shift(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    bitwise_right_shift(input, other, *, out=None) -> Tensor
    
    Each element shifted right by ``other`` bits (arithmetic shift) (integer or bool tensors).
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.bitwise_right_shift(engine.tensor([5, 4]), engine.tensor([2, 2]))
        tensor([1, 1])
    """
def bitwise_xor(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    bitwise_xor(input, other, *, out=None) -> Tensor
    
    Bitwise XOR of each pair of elements (integer or bool tensors).
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.bitwise_xor(engine.tensor([5, 4]), engine.tensor([3, 2]))
        tensor([6, 6])
    """
def bmm(input: Tensor, mat2: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    bmm(input, mat2) -> Tensor
    
    Batched matrix product of two 3-D tensors, ``(b, n, m) @ (b, m, p) -> (b, n, p)``, without
    broadcasting.
    
    Args:
        input (Tensor): the first batch of matrices.
        mat2 (Tensor): the second batch.
    
    Example::
    
        >>> engine.bmm(engine.ones(4, 2, 3), engine.ones(4, 3, 5)).shape
        torch.Size([4, 2, 5])
    """
def can_cast(from_: typing.Any, to: typing.Any) -> bool:
    """
    can_cast(from_, to) -> bool
    
    Whether a cast from ``from_`` to ``to`` is allowed under PyTorch's casting rules (no float to
    integer, no non-bool to bool).
    
    Args:
        from_ (engine.dtype): the source dtype.
        to (engine.dtype): the target dtype.
    
    Example::
    
        >>> engine.can_cast(engine.float64, engine.int32)
        False
    """
def cat(tensors: typing.Any, dim: typing.SupportsInt | typing.SupportsIndex = 0) -> Tensor:
    """
    cat(tensors, dim=0) -> Tensor
    
    Concatenates tensors along the existing dimension ``dim``; their other sizes must agree (1-D
    empty tensors are skipped). The dtype is their promoted dtype. Aliases: :func:`engine.concat`,
    :func:`engine.concatenate`.
    
    Args:
        tensors (sequence of Tensors): the tensors to join.
        dim (int): the dimension to join along. Default: 0.
    
    Example::
    
        >>> engine.cat([engine.tensor([1, 2]), engine.tensor([3])])
        tensor([1, 2, 3])
    """
def ceil(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    ceil(input, *, out=None) -> Tensor
    
    Smallest integer not less than each element.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.ceil(engine.tensor([1.2, -1.2]))
        tensor([ 2., -1.])
    """
def clamp(input: Tensor, min: typing.Any = None, max: typing.Any = None, *, out: typing.Any = None) -> typing.Any:
    """
    clamp(input, min=None, max=None, *, out=None) -> Tensor
    
    Clamps each element into ``[min, max]``; either bound may be ``None`` (not both), a number or a
    broadcasting tensor. Where ``min > max`` the result is ``max``. Alias: :func:`engine.clip`.
    
    Args:
        input (Tensor): the input tensor.
        min (Number or Tensor, optional): the lower bound.
        max (Number or Tensor, optional): the upper bound.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.clamp(engine.tensor([-2.0, 0.5, 3.0]), min=-1, max=1)
        tensor([-1.0000,  0.5000,  1.0000])
    """
def clip(input: Tensor, min: typing.Any = None, max: typing.Any = None, *, out: typing.Any = None) -> typing.Any:
    """
    clip(input, min=None, max=None, *, out=None) -> Tensor
    
    Clamps each element into ``[min, max]``; either bound may be ``None`` (not both), a number or a
    broadcasting tensor. Where ``min > max`` the result is ``max``. Alias: :func:`engine.clip`.
    
    Args:
        input (Tensor): the input tensor.
        min (Number or Tensor, optional): the lower bound.
        max (Number or Tensor, optional): the upper bound.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.clamp(engine.tensor([-2.0, 0.5, 3.0]), min=-1, max=1)
        tensor([-1.0000,  0.5000,  1.0000])
    """
def clone(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    ...
def complex(real: Tensor, imag: Tensor) -> Tensor:
    ...
def convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], padding: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], dilation: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], transposed: bool, output_padding: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], groups: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
    """
    torch.convolution: the N-d (transposed) convolution behind conv*d.
    """
def copysign(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    copysign(input, other, *, out=None) -> Tensor
    
    The magnitude of ``input`` with the sign of ``other``, element by element.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the tensor whose signs are taken.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.copysign(engine.tensor([1.0, 2.0]), engine.tensor([-1.0, 0.0]))
        tensor([-1.,  2.])
    """
def cos(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    cos(input, *, out=None) -> Tensor
    
    Cosine of each element (in radians).
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.cos(engine.tensor([0.0, 3.1415927]))
        tensor([ 1., -1.])
    """
def cosh(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    cosh(input, *, out=None) -> Tensor
    
    Hyperbolic cosine of each element.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.cosh(engine.tensor([0.0, 1.0]))
        tensor([1.0000, 1.5431])
    """
def cumprod(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, *, dtype: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    cumprod(input, dim, *, dtype=None) -> Tensor
    
    Cumulative product along ``dim``: element ``i`` is the product of elements ``0..i``.
    
    Args:
        input (Tensor): the input tensor.
        dim (int): the dimension to scan.
    
    Keyword args:
        dtype (engine.dtype, optional): the dtype the input is cast to first.
    
    Example::
    
        >>> engine.cumprod(engine.tensor([1, 2, 3]), dim=0)
        tensor([1, 2, 6])
    """
def cumsum(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, *, dtype: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    cumsum(input, dim, *, dtype=None) -> Tensor
    
    Cumulative sum along ``dim``: element ``i`` is the sum of elements ``0..i``. Integer and bool
    inputs give int64.
    
    Args:
        input (Tensor): the input tensor.
        dim (int): the dimension to scan.
    
    Keyword args:
        dtype (engine.dtype, optional): the dtype the input is cast to first.
    
    Example::
    
        >>> engine.cumsum(engine.tensor([1, 2, 3]), dim=0)
        tensor([1, 3, 6])
    """
def deg2rad(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    deg2rad(input, *, out=None) -> Tensor
    
    Converts each element from degrees to radians.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.deg2rad(engine.tensor([180.0, 90.0]))
        tensor([3.1416, 1.5708])
    """
def detach(arg0: Tensor) -> Tensor:
    """
    detach(input) -> Tensor
    
    A new tensor that shares ``input``'s memory but is outside the autograd graph
    (``requires_grad=False``, no ``grad_fn``).
    
    Args:
        input (Tensor): the input tensor.
    
    Example::
    
        >>> x = engine.ones(2, requires_grad=True)
        >>> engine.detach(x * 2).requires_grad
        False
    """
def diagonal(input: Tensor, offset: typing.SupportsInt | typing.SupportsIndex = 0, dim1: typing.SupportsInt | typing.SupportsIndex = 0, dim2: typing.SupportsInt | typing.SupportsIndex = 1) -> Tensor:
    """
    diagonal(input, offset=0, dim1=0, dim2=1) -> Tensor
    
    A view of the diagonal of ``input`` with respect to ``dim1`` and ``dim2``, appended as the last
    dimension. ``offset > 0`` selects a diagonal above the main one, ``< 0`` below.
    
    Args:
        input (Tensor): a tensor of at least 2 dimensions.
        offset (int): which diagonal. Default: 0.
        dim1 (int): the first dimension of the matrices. Default: 0.
        dim2 (int): the second dimension of the matrices. Default: 1.
    
    Example::
    
        >>> x = engine.tensor([[1, 2], [3, 4]])
        >>> engine.diagonal(x)
        tensor([1, 4])
        >>> engine.diagonal(x, offset=1)
        tensor([2])
    """
def digamma(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    digamma(input, *, out=None) -> Tensor
    
    Digamma function (the derivative of ``lgamma``) of each element; ``-inf`` at 0.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.digamma(engine.tensor([1.0, 2.0]))
        tensor([-0.5772,  0.4228])
    """
def div(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    ...
def dot(input: Tensor, tensor: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    dot(input, tensor) -> Tensor
    
    Dot product of two 1-D tensors of the same length and dtype, a 0-d tensor.
    
    Args:
        input (Tensor): the first vector.
        tensor (Tensor): the second vector.
    
    Example::
    
        >>> engine.dot(engine.tensor([1.0, 2.0]), engine.tensor([3.0, 4.0]))
        tensor(11.)
    """
def elu(input: Tensor, alpha: typing.Any = 1.0, scale: typing.Any = 1, input_scale: typing.Any = 1) -> Tensor:
    """
    F.elu / selu as one node (EluBackward0).
    """
def elu_(input: Tensor, alpha: typing.Any = 1.0, scale: typing.Any = 1, input_scale: typing.Any = 1) -> Tensor:
    """
    In-place elu: one node that saves the result (EluBackward1).
    """
def empty(*args, **kwargs) -> Tensor:
    """
    empty(*size, *, dtype=None, device=None, requires_grad=False) -> Tensor
    
    A tensor of the given shape filled with uninitialized memory (its values are whatever the
    memory held).
    
    Args:
        *size (int...): the shape, as several ints or one list, tuple or :class:`Size`.
    
    Keyword args:
        dtype (engine.dtype, optional): the result's dtype. Default: the default dtype
            (:func:`get_default_dtype`), or inferred from the arguments where stated.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool, optional): whether autograd records operations on the result.
            Default: ``False``.
    
    Example::
    
        >>> engine.empty(2, 3).shape
        torch.Size([2, 3])
    """
def empty_like(input: Tensor, **kwargs) -> Tensor:
    """
    empty_like(input, *, dtype=None, device=None, requires_grad=False) -> Tensor
    
    A tensor with the shape (and, unless ``dtype`` is given, the dtype) of ``input``, filled with
    uninitialized memory.
    
    Args:
        input (Tensor): the tensor whose shape is taken.
    
    Keyword args:
        dtype (engine.dtype, optional): the result's dtype. Default: ``input``'s.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool, optional): whether autograd records operations on the result.
            Default: ``False``.
    
    Example::
    
        >>> engine.empty_like(engine.tensor([[1, 2]])).shape
        torch.Size([1, 2])
    """
def eq(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    eq(input, other, *, out=None) -> Tensor
    
    Tells, element by element, whether ``input`` is equal to ``other``, as a bool tensor.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the tensor or number to compare with.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.eq(engine.tensor([1, 2, 3]), 2)
        tensor([False,  True, False])
    """
def erf(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    erf(input, *, out=None) -> Tensor
    
    Error function :math:`\\frac{2}{\\sqrt{\\pi}} \\int_0^x e^{-t^2} dt` of each element.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.erf(engine.tensor([0.0, 1.0]))
        tensor([0.0000, 0.8427])
    """
def erfc(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    erfc(input, *, out=None) -> Tensor
    
    Complementary error function :math:`1 - \\mathrm{erf}(x)` of each element, accurate where
    ``erf`` is close to 1.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.erfc(engine.tensor([0.0, 1.0]))
        tensor([1.0000, 0.1573])
    """
def erfinv(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    erfinv(input, *, out=None) -> Tensor
    
    Inverse error function of each element: ``y`` with ``erf(y) = x``, for x in (-1, 1).
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.erfinv(engine.tensor([0.0, 0.5]))
        tensor([0.0000, 0.4769])
    """
def exp(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    exp(input, *, out=None) -> Tensor
    
    Exponential :math:`e^x` of each element.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.exp(engine.tensor([0.0, 1.0]))
        tensor([1.0000, 2.7183])
    """
def exp2(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    exp2(input, *, out=None) -> Tensor
    
    Base-2 exponential :math:`2^x` of each element.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.exp2(engine.tensor([0.0, 3.0]))
        tensor([1., 8.])
    """
def expm1(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    expm1(input, *, out=None) -> Tensor
    
    Computes :math:`e^x - 1` for each element, accurately for small ``x``.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.expm1(engine.tensor([0.0, 1e-10], dtype=engine.float64))
        tensor([0.0000e+00, 1.0000e-10], dtype=torch.float64)
    """
def floor(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    floor(input, *, out=None) -> Tensor
    
    Largest integer not greater than each element (integer tensors are returned unchanged).
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.floor(engine.tensor([1.5, -1.5]))
        tensor([ 1., -2.])
    """
def floor_divide(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    floor_divide(input, other, *, out=None) -> Tensor
    
    Divides ``input`` by ``other`` and rounds the quotient down (Python's ``//``).
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the divisor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.floor_divide(engine.tensor([7, -7]), 2)
        tensor([ 3, -4])
    """
def fmax(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    fmax(input, other, *, out=None) -> Tensor
    
    Element-wise maximum that ignores NaN: where one side is NaN the other is taken.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.fmax(engine.tensor([1.0, float('nan')]), engine.tensor([3.0, 2.0]))
        tensor([3., 2.])
    """
def fmin(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    fmin(input, other, *, out=None) -> Tensor
    
    Element-wise minimum that ignores NaN: where one side is NaN the other is taken.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.fmin(engine.tensor([1.0, float('nan')]), engine.tensor([3.0, 2.0]))
        tensor([1., 2.])
    """
def fmod(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    fmod(input, other, *, out=None) -> Tensor
    
    Remainder of the division, with the sign of the dividend (C's ``fmod``).
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the divisor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.fmod(engine.tensor([7, -7]), 3)
        tensor([ 1, -1])
    """
def frac(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    frac(input, *, out=None) -> Tensor
    
    Fractional part of each element, ``input - trunc(input)`` (it keeps the sign).
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.frac(engine.tensor([1.5, -2.25]))
        tensor([ 0.5000, -0.2500])
    """
def frexp(input: typing.Any) -> typing.Any:
    """
    frexp(input) -> (Tensor mantissa, Tensor exponent)
    
    Splits each element into a mantissa in [0.5, 1) (in magnitude) and an int32 exponent, so that
    ``input = mantissa * 2 ** exponent``.
    
    Args:
        input (Tensor): a floating-point tensor.
    
    Example::
    
        >>> engine.frexp(engine.tensor([8.0, 3.0]))
        torch.return_types.frexp(
        mantissa=tensor([0.5000, 0.7500]),
        exponent=tensor([4, 2], dtype=torch.int32))
    """
def from_numpy(arg0: numpy.ndarray) -> Tensor:
    """
    from_numpy(ndarray) -> Tensor
    
    A tensor that shares memory with the NumPy array ``ndarray``: writes to one show in the other,
    and the array stays alive as long as the tensor. The dtype follows the array's.
    
    Args:
        ndarray (numpy.ndarray): the array to wrap.
    
    Example::
    
        >>> import numpy as np
        >>> a = np.array([1.0, 2.0])
        >>> t = engine.from_numpy(a)
        >>> t[0] = 5
        >>> a
        array([5., 2.])
    """
def full(size: typing.Any, fill_value: typing.Any, **kwargs) -> Tensor:
    """
    full(size, fill_value, *, dtype=None, device=None, requires_grad=False) -> Tensor
    
    A tensor of shape ``size`` filled with ``fill_value``. Without ``dtype`` the dtype is inferred
    from ``fill_value`` (bool, int64 or the default float dtype).
    
    Args:
        size (list or tuple of ints): the shape.
        fill_value (Number): the value.
    
    Keyword args:
        dtype (engine.dtype, optional): the result's dtype. Default: the default dtype
            (:func:`get_default_dtype`), or inferred from the arguments where stated.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool, optional): whether autograd records operations on the result.
            Default: ``False``.
    
    Example::
    
        >>> engine.full((2, 2), 7)
        tensor([[7, 7],
                [7, 7]])
    """
def full_like(input: Tensor, fill_value: typing.Any, **kwargs) -> Tensor:
    """
    full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False) -> Tensor
    
    A tensor with the shape (and, unless ``dtype`` is given, the dtype) of ``input``, filled with
    ``fill_value``.
    
    Args:
        input (Tensor): the tensor whose shape is taken.
        fill_value (Number): the value.
    
    Keyword args:
        dtype (engine.dtype, optional): the result's dtype. Default: ``input``'s.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool, optional): whether autograd records operations on the result.
            Default: ``False``.
    
    Example::
    
        >>> engine.full_like(engine.zeros(2), 3.5)
        tensor([3.5000, 3.5000])
    """
def gather(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor) -> Tensor:
    """
    gather(input, dim, index) -> Tensor
    
    Takes values of ``input`` along ``dim`` at the positions in ``index``: for ``dim=1``,
    ``out[i][j] = input[i][index[i][j]]``. The result has ``index``'s shape.
    
    Args:
        input (Tensor): the source tensor.
        dim (int): the axis to index along.
        index (LongTensor): the positions, with as many dimensions as ``input``.
    
    Example::
    
        >>> x = engine.tensor([[1, 2], [3, 4]])
        >>> engine.gather(x, 1, engine.tensor([[0, 0], [1, 0]]))
        tensor([[1, 1],
                [4, 3]])
    """
def gcd(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    gcd(input, other, *, out=None) -> Tensor
    
    Greatest common divisor of each pair of integers (non-negative).
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.gcd(engine.tensor([12, 9]), engine.tensor([18, 6]))
        tensor([6, 3])
    """
def ge(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    ge(input, other, *, out=None) -> Tensor
    
    Tells, element by element, whether ``input`` is greater than or equal to ``other``, as a bool
    tensor. Alias: :func:`engine.greater_equal`.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the tensor or number to compare with.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.ge(engine.tensor([1, 2, 3]), 2)
        tensor([False,  True,  True])
    """
def gelu(input: Tensor, approximate: str = 'none') -> Tensor:
    """
    F.gelu as one node (GeluBackward0).
    """
def get_default_dtype() -> typing.Any:
    """
    get_default_dtype() -> engine.dtype
    
    The dtype of floating-point tensors made without an explicit dtype (``float32`` at start).
    
    Example::
    
        >>> engine.get_default_dtype()
        torch.float32
    """
def get_num_threads() -> int:
    """
    Threads used for large elementwise and reduction kernels.
    """
def gt(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    gt(input, other, *, out=None) -> Tensor
    
    Tells, element by element, whether ``input`` is greater than ``other``, as a bool tensor.
    Alias: :func:`engine.greater`.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the tensor or number to compare with.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.gt(engine.tensor([1, 2, 3]), 2)
        tensor([False, False,  True])
    
    gt(input, other, *, out=None) -> Tensor
    
    Tells, element by element, whether ``input`` is greater than ``other``, as a bool tensor.
    Alias: :func:`engine.greater`.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the tensor or number to compare with.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.gt(engine.tensor([1, 2, 3]), 2)
        tensor([False, False,  True])
    """
def hardsigmoid(input: Tensor) -> Tensor:
    """
    F.hardsigmoid as one node (HardsigmoidBackward0).
    """
def hardswish(input: Tensor) -> Tensor:
    """
    F.hardswish as one node (HardswishBackward0).
    """
def hardtanh(input: Tensor, min_val: typing.Any = -1.0, max_val: typing.Any = 1.0) -> Tensor:
    """
    F.hardtanh of a floating tensor as one node (HardtanhBackward0).
    """
def hardtanh_(input: Tensor, min_val: typing.Any = -1.0, max_val: typing.Any = 1.0) -> Tensor:
    """
    In-place hardtanh of a floating tensor: one node (HardtanhBackward0).
    """
def heaviside(input: typing.Any, values: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    heaviside(input, values, *, out=None) -> Tensor
    
    Heaviside step function: 0 where ``input < 0``, 1 where ``input > 0``, and ``values`` where
    ``input == 0``.
    
    ``input`` and ``values`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        values (Tensor or Number): the value taken where ``input`` is zero.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.heaviside(engine.tensor([-1.0, 0.0, 2.0]), engine.tensor([0.5]))
        tensor([0.0000, 0.5000, 1.0000])
    """
def hypot(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    hypot(input, other, *, out=None) -> Tensor
    
    Hypotenuse :math:`\\sqrt{input^2 + other^2}` of each pair, without overflow.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.hypot(engine.tensor([3.0]), engine.tensor([4.0]))
        tensor([5.])
    """
def i0(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    i0(input, *, out=None) -> Tensor
    
    Modified Bessel function of the first kind of order 0, :math:`I_0(x)`, of each element.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.i0(engine.tensor([0.0, 1.0]))
        tensor([1.0000, 1.2661])
    """
def igamma(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    igamma(input, other, *, out=None) -> Tensor
    
    Regularized lower incomplete gamma function :math:`P(input, other)`.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.igamma(engine.tensor([1.0]), engine.tensor([1.0]))
        tensor([0.6321])
    """
def igammac(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    igammac(input, other, *, out=None) -> Tensor
    
    Regularized upper incomplete gamma function :math:`Q(input, other) = 1 - P`.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.igammac(engine.tensor([1.0]), engine.tensor([1.0]))
        tensor([0.3679])
    """
def index_add(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor, source: Tensor, *, alpha: typing.SupportsFloat | typing.SupportsIndex = 1.0) -> Tensor:
    """
    index_add(input, dim, index, source, *, alpha=1) -> Tensor
    
    A copy of ``input`` to which ``alpha * source`` is added at the positions ``index`` along
    ``dim``; repeated indices accumulate.
    
    Args:
        input (Tensor): the tensor copied.
        dim (int): the dimension to index.
        index (LongTensor): the positions (1-D).
        source (Tensor): the values, ``index``'s length along ``dim``.
    
    Keyword args:
        alpha (Number): the multiplier of ``source``. Default: 1.
    
    Example::
    
        >>> engine.index_add(engine.zeros(3), 0, engine.tensor([0, 0]), engine.tensor([1.0, 2.0]))
        tensor([3., 0., 0.])
    """
def index_copy(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor, source: Tensor) -> Tensor:
    """
    index_copy(input, dim, index, source) -> Tensor
    
    A copy of ``input`` whose entries along ``dim`` at the positions ``index`` are replaced by
    those of ``source``.
    
    Args:
        input (Tensor): the tensor copied.
        dim (int): the dimension to index.
        index (LongTensor): the positions (1-D).
        source (Tensor): the new values.
    
    Example::
    
        >>> engine.index_copy(engine.zeros(3), 0, engine.tensor([2]), engine.tensor([7.0]))
        tensor([0., 0., 7.])
    """
def index_select(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor) -> Tensor:
    """
    index_select(input, dim, index) -> Tensor
    
    The entries of ``input`` along ``dim`` at the positions in the 1-D ``index``, copied into a new
    tensor.
    
    Args:
        input (Tensor): the input tensor.
        dim (int): the dimension to index.
        index (LongTensor): the positions (1-D).
    
    Example::
    
        >>> engine.index_select(engine.tensor([[1, 2], [3, 4]]), 0, engine.tensor([1, 1]))
        tensor([[3, 4],
                [3, 4]])
    """
def is_anomaly_check_nan_enabled() -> bool:
    """
    is_anomaly_check_nan_enabled() -> bool
    
    Whether anomaly detection also raises when a backward function returns NaN.
    
    Example::
    
        >>> engine.is_anomaly_check_nan_enabled()
        True
    """
def is_anomaly_enabled() -> bool:
    """
    is_anomaly_enabled() -> bool
    
    Whether anomaly detection is on (see :class:`engine.autograd.detect_anomaly`).
    
    Example::
    
        >>> engine.is_anomaly_enabled()
        False
    """
def is_grad_enabled() -> bool:
    """
    is_grad_enabled() -> bool
    
    Whether autograd records operations in this thread (see :class:`no_grad`).
    
    Example::
    
        >>> with engine.no_grad():
        ...     print(engine.is_grad_enabled())
        False
    """
def is_inference(arg0: Tensor) -> bool:
    ...
def is_inference_mode_enabled() -> bool:
    ...
def is_tensor(arg0: typing.Any) -> bool:
    """
    is_tensor(obj) -> bool
    
    Whether ``obj`` is an engine tensor (including a :class:`~engine.nn.Parameter`).
    
    Args:
        obj (object): the object to test.
    
    Example::
    
        >>> engine.is_tensor(engine.zeros(1)), engine.is_tensor([1])
        (True, False)
    """
def isfinite(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    isfinite(input) -> Tensor
    
    Bool tensor telling which elements of ``input`` are finite (neither infinite nor NaN).
    
    Args:
        input (Tensor): the input tensor.
    
    Example::
    
        >>> engine.isfinite(engine.tensor([1.0, float('inf'), float('nan')]))
        tensor([ True, False, False])
    """
def isinf(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    isinf(input) -> Tensor
    
    Bool tensor telling which elements of ``input`` are positive or negative infinity.
    
    Args:
        input (Tensor): the input tensor.
    
    Example::
    
        >>> engine.isinf(engine.tensor([1.0, float('-inf')]))
        tensor([False,  True])
    """
def isnan(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    isnan(input) -> Tensor
    
    Bool tensor telling which elements of ``input`` are NaN.
    
    Args:
        input (Tensor): the input tensor.
    
    Example::
    
        >>> engine.isnan(engine.tensor([1.0, float('nan')]))
        tensor([False,  True])
    """
def lcm(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    lcm(input, other, *, out=None) -> Tensor
    
    Least common multiple of each pair of integers (non-negative).
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.lcm(engine.tensor([4, 6]), engine.tensor([6, 10]))
        tensor([12, 30])
    """
def le(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    le(input, other, *, out=None) -> Tensor
    
    Tells, element by element, whether ``input`` is less than or equal to ``other``, as a bool
    tensor. Alias: :func:`engine.less_equal`.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the tensor or number to compare with.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.le(engine.tensor([1, 2, 3]), 2)
        tensor([ True,  True, False])
    """
def leaky_relu(input: Tensor, negative_slope: typing.Any = 0.01) -> Tensor:
    """
    F.leaky_relu as one node (LeakyReluBackward0).
    """
def leaky_relu_(input: Tensor, negative_slope: typing.Any = 0.01) -> Tensor:
    """
    In-place leaky_relu: one node that saves the result (LeakyReluBackward1).
    """
def lerp(input: Tensor, end: Tensor, weight: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    lerp(input, end, weight, *, out=None) -> Tensor
    
    Linear interpolation ``input + weight * (end - input)``, broadcasting all three.
    
    Args:
        input (Tensor): the start points.
        end (Tensor): the end points.
        weight (float or Tensor): the interpolation weight.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.lerp(engine.tensor([0.0, 10.0]), engine.tensor([10.0, 20.0]), 0.5)
        tensor([ 5., 15.])
    """
def lgamma(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    lgamma(input, *, out=None) -> Tensor
    
    Natural logarithm of the absolute value of the gamma function of each element.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.lgamma(engine.tensor([1.0, 5.0]))
        tensor([0.0000, 3.1781])
    """
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """
    F.linear: input @ weight.T + bias in one GEMM and one graph node.
    
    linear(input, weight, bias=None) -> Tensor
    
    Affine map ``input @ weight.T + bias`` over the last dimension of ``input``, computed as one
    matrix product (and one graph node).
    
    Args:
        input (Tensor): (*, in_features).
        weight (Tensor): (out_features, in_features).
        bias (Tensor, optional): (out_features). Default: ``None``.
    
    Example::
    
        >>> x = engine.tensor([[1.0, 2.0]])
        >>> w = engine.tensor([[1.0, 1.0], [0.0, 2.0]])
        >>> engine.nn.functional.linear(x, w, engine.tensor([0.5, 0.0]))
        tensor([[3.5000, 4.0000]])
    """
def linspace(start: typing.Any, end: typing.Any, steps: typing.SupportsInt | typing.SupportsIndex, **kwargs) -> Tensor:
    """
    linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False) -> Tensor
    
    A 1-D tensor of ``steps`` values evenly spaced from ``start`` to ``end``, both included.
    
    Args:
        start (Number): the first value.
        end (Number): the last value.
        steps (int): the number of values, ``>= 0``.
    
    Keyword args:
        dtype (engine.dtype, optional): the result's dtype. Default: the default dtype
            (:func:`get_default_dtype`), or inferred from the arguments where stated.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool, optional): whether autograd records operations on the result.
            Default: ``False``.
    
    Example::
    
        >>> engine.linspace(0, 1, 5)
        tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])
    """
def log(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    log(input, *, out=None) -> Tensor
    
    Natural logarithm of each element; ``-inf`` at 0 and NaN below it.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.log(engine.tensor([1.0, 4.0]))
        tensor([0.0000, 1.3863])
    """
def log10(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    log10(input, *, out=None) -> Tensor
    
    Base-10 logarithm of each element.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.log10(engine.tensor([10.0, 1000.0]))
        tensor([1., 3.])
    """
def log1p(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    log1p(input, *, out=None) -> Tensor
    
    Computes :math:`\\log(1 + x)` for each element, accurately for small ``x``.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.log1p(engine.tensor([0.0, 1e-10], dtype=engine.float64))
        tensor([0.0000e+00, 1.0000e-10], dtype=torch.float64)
    """
def log2(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    log2(input, *, out=None) -> Tensor
    
    Base-2 logarithm of each element.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.log2(engine.tensor([1.0, 8.0]))
        tensor([0., 3.])
    """
def log_sigmoid(input: Tensor) -> Tensor:
    """
    F.logsigmoid as one node (LogSigmoidBackward0).
    """
def logaddexp(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    logaddexp(input, other, *, out=None) -> Tensor
    
    Computes :math:`\\log(e^{input} + e^{other})` without overflow.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.logaddexp(engine.tensor([0.0]), engine.tensor([0.0]))
        tensor([0.6931])
    """
def logaddexp2(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    logaddexp2(input, other, *, out=None) -> Tensor
    
    Computes :math:`\\log_2(2^{input} + 2^{other})` without overflow.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.logaddexp2(engine.tensor([1.0]), engine.tensor([1.0]))
        tensor([2.])
    """
def logical_and(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    logical_and(input, other, *, out=None) -> Tensor
    
    Logical AND of each pair of elements, zero read as ``False``; a bool tensor.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.logical_and(engine.tensor([1, 0, 2]), engine.tensor([0, 0, 3]))
        tensor([False, False,  True])
    """
def logical_not(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    logical_not(input, *, out=None) -> Tensor
    
    Logical negation of each element (zero is ``False``); a bool tensor.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.logical_not(engine.tensor([0.0, 2.0]))
        tensor([ True, False])
    """
def logical_or(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    logical_or(input, other, *, out=None) -> Tensor
    
    Logical OR of each pair of elements, zero read as ``False``; a bool tensor.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.logical_or(engine.tensor([1, 0, 2]), engine.tensor([0, 0, 3]))
        tensor([ True, False,  True])
    """
def logical_xor(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    logical_xor(input, other, *, out=None) -> Tensor
    
    Logical XOR of each pair of elements, zero read as ``False``; a bool tensor.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.logical_xor(engine.tensor([1, 0, 2]), engine.tensor([0, 0, 3]))
        tensor([ True, False, False])
    """
def logit(input: typing.Any, eps: typing.SupportsFloat | typing.SupportsIndex | None = None, *, out: typing.Any = None) -> typing.Any:
    """
    logit(input, eps=None, *, out=None) -> Tensor
    
    Logit :math:`\\log(p / (1 - p))` of each element. With ``eps``, the input is first clamped to
    ``[eps, 1 - eps]``; without it, 0 and 1 give ``-inf`` and ``inf``.
    
    Args:
        input (Tensor): the input tensor.
        eps (float, optional): the clamping bound. Default: ``None``.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.logit(engine.tensor([0.5, 0.75]))
        tensor([0.0000, 1.0986])
    """
def logsumexp(input: Tensor, dim: typing.Any, keepdim: bool = False, *, out: typing.Any = None) -> typing.Any:
    """
    logsumexp(input, dim=None, keepdim=False) -> Tensor
    
    Computes :math:`\\log \\sum_i e^{x_i}` over ``dim`` without overflow (the largest element is
    subtracted first).
    
    Args:
        input (Tensor): the input tensor.
        dim (int or tuple of ints, optional): the dimension(s) to reduce. Default: all.
        keepdim (bool): whether the reduced dimensions are kept with size 1. Default: ``False``.
    
    Example::
    
        >>> engine.logsumexp(engine.tensor([0.0, 0.0]), dim=0)
        tensor(0.6931)
    """
def lt(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    lt(input, other, *, out=None) -> Tensor
    
    Tells, element by element, whether ``input`` is less than ``other``, as a bool tensor. Alias:
    :func:`engine.less`.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the tensor or number to compare with.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.lt(engine.tensor([1, 2, 3]), 2)
        tensor([ True, False, False])
    
    lt(input, other, *, out=None) -> Tensor
    
    Tells, element by element, whether ``input`` is less than ``other``, as a bool tensor. Alias:
    :func:`engine.less`.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the tensor or number to compare with.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.lt(engine.tensor([1, 2, 3]), 2)
        tensor([ True, False, False])
    """
def matmul(input: Tensor, other: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    matmul(input, other, *, out=None) -> Tensor
    
    Matrix product with NumPy's rules: 1-D by 1-D is a dot product, 2-D by 2-D a matrix product, a
    1-D operand is read as a row (left) or column (right) vector and that dimension removed
    afterwards, and batch dimensions (all but the last two) broadcast. The ``@`` operator calls it.
    
    Args:
        input (Tensor): the first operand.
        other (Tensor): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> a = engine.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> engine.matmul(a, engine.tensor([1.0, 1.0]))
        tensor([3., 7.])
        >>> engine.matmul(engine.ones(5, 2, 3), engine.ones(3, 4)).shape
        torch.Size([5, 2, 4])
    """
def max(input: Tensor, dim: typing.Any = None, keepdim: bool = False, *, out: typing.Any = None) -> typing.Any:
    """
    max(input, dim=None, keepdim=False, *, out=None) -> Tensor or (Tensor, Tensor)
    max(input, other) -> Tensor
    
    Without ``dim``, the largest element as a 0-d tensor. With ``dim``, a named tuple ``(values,
    indices)`` of the maxima along ``dim`` and their positions. With a tensor ``other``, the same
    as :func:`maximum`.
    
    Args:
        input (Tensor): the input tensor.
        dim (int, optional): the dimension to reduce.
        keepdim (bool): whether ``dim`` is kept with size 1. Default: ``False``.
    
    Example::
    
        >>> x = engine.tensor([[1.0, 5.0], [3.0, 2.0]])
        >>> engine.max(x)
        tensor(5.)
        >>> engine.max(x, 1)
        torch.return_types.max(
        values=tensor([5., 3.]),
        indices=tensor([1, 0]))
    """
def maximum(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    maximum(input, other, *, out=None) -> Tensor
    
    Element-wise maximum of ``input`` and ``other``; NaN wins (see :func:`fmax`).
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.maximum(engine.tensor([1.0, 4.0]), engine.tensor([3.0, 2.0]))
        tensor([3., 4.])
    """
def min(input: Tensor, dim: typing.Any = None, keepdim: bool = False, *, out: typing.Any = None) -> typing.Any:
    """
    min(input, dim=None, keepdim=False, *, out=None) -> Tensor or (Tensor, Tensor)
    min(input, other) -> Tensor
    
    Without ``dim``, the smallest element as a 0-d tensor. With ``dim``, a named tuple ``(values,
    indices)`` of the minima along ``dim`` and their positions. With a tensor ``other``, the same
    as :func:`minimum`.
    
    Args:
        input (Tensor): the input tensor.
        dim (int, optional): the dimension to reduce.
        keepdim (bool): whether ``dim`` is kept with size 1. Default: ``False``.
    
    Example::
    
        >>> x = engine.tensor([[1.0, 5.0], [3.0, 2.0]])
        >>> engine.min(x)
        tensor(1.)
        >>> engine.min(x, 0).indices
        tensor([0, 1])
    """
def minimum(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    minimum(input, other, *, out=None) -> Tensor
    
    Element-wise minimum of ``input`` and ``other``; NaN wins (see :func:`fmin`).
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.minimum(engine.tensor([1.0, 4.0]), engine.tensor([3.0, 2.0]))
        tensor([1., 2.])
    """
def mish(input: Tensor) -> Tensor:
    """
    F.mish as one node (MishBackward0).
    """
def mm(input: Tensor, mat2: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    mm(input, mat2) -> Tensor
    
    Matrix product of two 2-D tensors, ``(n, m) @ (m, p) -> (n, p)``, without broadcasting (see
    :func:`matmul`).
    
    Args:
        input (Tensor): the first matrix.
        mat2 (Tensor): the second matrix.
    
    Example::
    
        >>> engine.mm(engine.tensor([[1.0, 2.0]]), engine.tensor([[3.0], [4.0]]))
        tensor([[11.]])
    """
def mul(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    mul(input, other, *, out=None) -> Tensor
    
    Multiplies ``input`` by ``other`` element by element. Alias: :func:`engine.multiply`.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.mul(engine.tensor([1.0, 2.0]), engine.tensor([3.0, 4.0]))
        tensor([3., 8.])
    """
def mv(input: Tensor, vec: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    mv(input, vec) -> Tensor
    
    Product of the matrix ``input`` (n, m) and the vector ``vec`` (m,), a vector (n,).
    
    Args:
        input (Tensor): the matrix.
        vec (Tensor): the vector.
    
    Example::
    
        >>> engine.mv(engine.tensor([[1.0, 2.0], [3.0, 4.0]]), engine.tensor([1.0, -1.0]))
        tensor([-1., -1.])
    """
def narrow(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, start: typing.SupportsInt | typing.SupportsIndex, length: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
    """
    narrow(input, dim, start, length) -> Tensor
    
    A view of ``length`` elements of ``input`` along ``dim``, from ``start``.
    
    Args:
        input (Tensor): the input tensor.
        dim (int): the dimension to narrow.
        start (int): the first index.
        length (int): how many to keep.
    
    Example::
    
        >>> engine.narrow(engine.arange(6), 0, 2, 3)
        tensor([2, 3, 4])
    """
def ne(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    ne(input, other, *, out=None) -> Tensor
    
    Tells, element by element, whether ``input`` is not equal to ``other``, as a bool tensor.
    Alias: :func:`engine.not_equal`.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the tensor or number to compare with.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.ne(engine.tensor([1, 2, 3]), 2)
        tensor([ True, False,  True])
    """
def neg(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    neg(input, *, out=None) -> Tensor
    
    Negation (``-input``) of each element. Alias: :func:`engine.negative`.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.neg(engine.tensor([1.0, -2.0]))
        tensor([-1.,  2.])
    """
def nextafter(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    nextafter(input, other, *, out=None) -> Tensor
    
    The next floating-point value after ``input`` in the direction of ``other``.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.nextafter(engine.tensor([1.0]), engine.tensor([2.0])) > 1
        tensor([True])
    """
def norm(input: Tensor, p: typing.Any = 'fro', dim: typing.Any = None, keepdim: bool = False, dtype: typing.Any = None) -> Tensor:
    ...
def numel(arg0: Tensor) -> int:
    """
    numel(input) -> int
    
    The number of elements of ``input``, the product of its sizes.
    
    Args:
        input (Tensor): the input tensor.
    
    Example::
    
        >>> engine.numel(engine.zeros(2, 3))
        6
    """
def ones(*args, **kwargs) -> Tensor:
    """
    ones(*size, *, dtype=None, device=None, requires_grad=False) -> Tensor
    
    A tensor of the given shape filled with ones.
    
    Args:
        *size (int...): the shape, as several ints or one list, tuple or :class:`Size`.
    
    Keyword args:
        dtype (engine.dtype, optional): the result's dtype. Default: the default dtype
            (:func:`get_default_dtype`), or inferred from the arguments where stated.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool, optional): whether autograd records operations on the result.
            Default: ``False``.
    
    Example::
    
        >>> engine.ones(2, dtype=engine.int64)
        tensor([1, 1])
    """
def ones_like(input: Tensor, **kwargs) -> Tensor:
    """
    ones_like(input, *, dtype=None, device=None, requires_grad=False) -> Tensor
    
    A tensor with the shape (and, unless ``dtype`` is given, the dtype) of ``input``, filled with
    ones.
    
    Args:
        input (Tensor): the tensor whose shape is taken.
    
    Keyword args:
        dtype (engine.dtype, optional): the result's dtype. Default: ``input``'s.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool, optional): whether autograd records operations on the result.
            Default: ``False``.
    
    Example::
    
        >>> engine.ones_like(engine.tensor([[1, 2]]))
        tensor([[1, 1]])
    """
def outer(input: Tensor, vec2: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    outer(input, vec2) -> Tensor
    
    Outer product of two 1-D tensors: ``result[i, j] = input[i] * vec2[j]``. Alias:
    :func:`engine.ger`.
    
    Args:
        input (Tensor): the first vector.
        vec2 (Tensor): the second vector.
    
    Example::
    
        >>> engine.outer(engine.tensor([1, 2]), engine.tensor([1, 10]))
        tensor([[ 1, 10],
                [ 2, 20]])
    """
def permute(input: Tensor, dims: typing.Any) -> Tensor:
    """
    permute(input, dims) -> Tensor
    
    A view of ``input`` with its dimensions reordered: dimension ``i`` of the result is dimension
    ``dims[i]`` of the input.
    
    Args:
        input (Tensor): the input tensor.
        dims (tuple of ints): a permutation of the dimensions.
    
    Example::
    
        >>> engine.permute(engine.zeros(2, 3, 4), (2, 0, 1)).shape
        torch.Size([4, 2, 3])
    """
def polar(abs: Tensor, angle: Tensor) -> Tensor:
    ...
def polygamma(n: typing.SupportsInt | typing.SupportsIndex, input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    polygamma(n, input, *, out=None) -> Tensor
    
    The ``n``-th derivative of the digamma function of each element (``n = 0`` is ``digamma``).
    
    Args:
        n (int): the order of the derivative, ``n >= 0``.
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.polygamma(1, engine.tensor([1.0, 2.0]))
        tensor([1.6449, 0.6449])
    """
def pow(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    pow(input, exponent, *, out=None) -> Tensor
    
    Raises each element of ``input`` to the power ``exponent`` (a number or a broadcasting tensor).
    ``input`` may also be a number with a tensor exponent.
    
    Args:
        input (Tensor or Number): the base.
        exponent (Tensor or Number): the exponent.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.pow(engine.tensor([1.0, 2.0, 3.0]), 2)
        tensor([1., 4., 9.])
        >>> engine.pow(2, engine.tensor([1, 3]))
        tensor([2, 8])
    """
def prod(input: Tensor, dim: typing.Any = None, keepdim: bool = False, *, dtype: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    prod(input, dim=None, keepdim=False, *, dtype=None) -> Tensor
    
    Product of all elements, or over ``dim``. Integer and bool inputs give int64.
    
    Args:
        input (Tensor): the input tensor.
        dim (int or tuple of ints, optional): the dimension(s) to reduce. Default: all.
        keepdim (bool): whether the reduced dimensions are kept with size 1. Default: ``False``.
    
    Keyword args:
        dtype (engine.dtype, optional): the dtype the input is cast to before reducing.
    
    Example::
    
        >>> engine.prod(engine.tensor([[1.0, 2.0], [3.0, 4.0]]), dim=1)
        tensor([ 2., 12.])
    """
def promote_types(type1: typing.Any, type2: typing.Any) -> typing.Any:
    """
    promote_types(type1, type2) -> engine.dtype
    
    The smallest dtype both ``type1`` and ``type2`` convert to without losing range, as binary
    operations use.
    
    Args:
        type1 (engine.dtype): the first dtype.
        type2 (engine.dtype): the second dtype.
    
    Example::
    
        >>> engine.promote_types(engine.int32, engine.float32)
        torch.float32
    """
def rad2deg(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    rad2deg(input, *, out=None) -> Tensor
    
    Converts each element from radians to degrees.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.rad2deg(engine.tensor([3.1415927, 1.0]))
        tensor([180.0000,  57.2958])
    """
def rand(*args, **kwargs) -> Tensor:
    """
    rand(*size, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor
    
    A tensor of the given shape filled with values drawn uniformly from [0, 1). For the same seed
    the values are PyTorch's.
    
    Args:
        *size (int...): the shape, as several ints or one list, tuple or :class:`Size`.
    
    Keyword args:
        generator (engine.Generator, optional): the random number generator to draw from.
        dtype (engine.dtype, optional): the result's dtype. Default: the default dtype
            (:func:`get_default_dtype`), or inferred from the arguments where stated.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool, optional): whether autograd records operations on the result.
            Default: ``False``.
    
    Example::
    
        >>> _ = engine.manual_seed(0)
        >>> engine.rand(3)
        tensor([0.4963, 0.7682, 0.0885])
    """
def randint(*args, **kwargs) -> Tensor:
    """
    randint(low=0, high, size, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor
    
    A tensor of shape ``size`` filled with integers drawn uniformly from [``low``, ``high``). The
    dtype is int64 unless given.
    
    Args:
        low (int, optional): the smallest value. Default: 0.
        high (int): one above the largest value.
        size (tuple): the shape.
    
    Keyword args:
        generator (engine.Generator, optional): the random number generator to draw from.
        dtype (engine.dtype, optional): the result's dtype. Default: int64.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool, optional): whether autograd records operations on the result.
            Default: ``False``.
    
    Example::
    
        >>> _ = engine.manual_seed(0)
        >>> engine.randint(0, 10, (4,))
        tensor([4, 9, 3, 0])
    """
def randn(*args, **kwargs) -> Tensor:
    """
    randn(*size, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor
    
    A tensor of the given shape filled with values drawn from the standard normal distribution
    (mean 0, variance 1). For the same seed the values are PyTorch's.
    
    Args:
        *size (int...): the shape, as several ints or one list, tuple or :class:`Size`.
    
    Keyword args:
        generator (engine.Generator, optional): the random number generator to draw from.
        dtype (engine.dtype, optional): the result's dtype. Default: the default dtype
            (:func:`get_default_dtype`), or inferred from the arguments where stated.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool, optional): whether autograd records operations on the result.
            Default: ``False``.
    
    Example::
    
        >>> _ = engine.manual_seed(0)
        >>> engine.randn(3)
        tensor([ 1.5410, -0.2934, -2.1788])
    """
def reciprocal(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    reciprocal(input, *, out=None) -> Tensor
    
    Reciprocal :math:`1 / x` of each element. Integer inputs give the default float dtype.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.reciprocal(engine.tensor([2.0, -0.5]))
        tensor([ 0.5000, -2.0000])
    """
def relu(input: Tensor) -> Tensor:
    """
    relu(input, *, out=None) -> Tensor
    
    Rectified linear unit: each element, or 0 where it is negative.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.relu(engine.tensor([-1.0, 0.5]))
        tensor([0.0000, 0.5000])
    """
def remainder(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    remainder(input, other, *, out=None) -> Tensor
    
    Remainder of the division, with the sign of the divisor (Python's ``%``).
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the divisor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.remainder(engine.tensor([7, -7]), 3)
        tensor([1, 2])
    """
def reshape(input: Tensor, shape: typing.Any) -> Tensor:
    """
    reshape(input, shape) -> Tensor
    
    A tensor with ``input``'s elements in the given shape: a view when the strides allow, otherwise
    a copy. One dimension may be -1 and is then inferred.
    
    Args:
        input (Tensor): the input tensor.
        shape (tuple of ints): the new shape.
    
    Example::
    
        >>> engine.reshape(engine.arange(6), (2, -1))
        tensor([[0, 1, 2],
                [3, 4, 5]])
    """
def result_type(arg0: typing.Any, arg1: typing.Any) -> typing.Any:
    """
    result_type(tensor1, tensor2) -> engine.dtype
    
    The dtype a binary operation on the two operands (tensors or numbers) gives, with PyTorch's
    rules: 0-d tensors and numbers only decide the category (bool, integer, floating).
    
    Args:
        tensor1 (Tensor or Number): the first operand.
        tensor2 (Tensor or Number): the second operand.
    
    Example::
    
        >>> engine.result_type(engine.tensor([1, 2]), 1.0)
        torch.float32
    """
def round(input: Tensor, *, decimals: typing.SupportsInt | typing.SupportsIndex = 0, out: typing.Any = None) -> typing.Any:
    """
    round(input, *, decimals=0, out=None) -> Tensor
    
    Rounds each element to the nearest integer, halves to even (as NumPy and PyTorch do), or to
    ``decimals`` decimal places.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        decimals (int): the number of decimal places (negative rounds left of the point).
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.round(engine.tensor([0.5, 1.5, 2.5, -0.5]))
        tensor([0., 2., 2., -0.])
        >>> engine.round(engine.tensor([1.2345]), decimals=2)
        tensor([1.2300])
    """
def rsqrt(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    rsqrt(input, *, out=None) -> Tensor
    
    Reciprocal of the square root of each element, :math:`1 / \\sqrt{x}`.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.rsqrt(engine.tensor([4.0, 0.25]))
        tensor([0.5000, 2.0000])
    """
def scatter(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor, src: typing.Any = None, *, value: typing.Any = None, reduce: typing.Any = None) -> typing.Any:
    """
    scatter(input, dim, index, src) -> Tensor
    
    Out-of-place :meth:`Tensor.scatter_`: a copy of ``input`` where, for ``dim=0``,
    ``out[index[i][j]][j] = src[i][j]``; ``src`` may be a number. With repeated indices, which
    value lands is unspecified.
    
    Args:
        input (Tensor): the tensor copied.
        dim (int): the axis to index along.
        index (LongTensor): the positions.
        src (Tensor or Number): the values to write.
    
    Example::
    
        >>> engine.scatter(engine.zeros(3), 0, engine.tensor([2, 0]), engine.tensor([5.0, 6.0]))
        tensor([6., 0., 5.])
    """
def scatter_add(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, index: Tensor, src: Tensor) -> Tensor:
    """
    scatter_add(input, dim, index, src) -> Tensor
    
    Like :func:`scatter` but adds the values of ``src`` to the indexed positions, summing repeated
    indices.
    
    Args:
        input (Tensor): the tensor copied.
        dim (int): the axis to index along.
        index (LongTensor): the positions.
        src (Tensor): the values to add.
    
    Example::
    
        >>> engine.scatter_add(engine.zeros(3), 0, engine.tensor([0, 0, 2]), engine.ones(3))
        tensor([2., 0., 1.])
    """
def select(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex, index: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
    """
    select(input, dim, index) -> Tensor
    
    A view of ``input`` at position ``index`` along ``dim``, without that dimension (``input[:,
    index]`` for ``dim=1``).
    
    Args:
        input (Tensor): the input tensor.
        dim (int): the dimension.
        index (int): the position, negative counting from the end.
    
    Example::
    
        >>> engine.select(engine.tensor([[1, 2], [3, 4]]), 1, 0)
        tensor([1, 3])
    """
def set_default_dtype(arg0: typing.Any) -> None:
    """
    set_default_dtype(d) -> None
    
    Sets the dtype floating-point tensors get when none is given (``float32`` or ``float64``), as
    :func:`tensor`, :func:`zeros` or :func:`rand` make them.
    
    Args:
        d (engine.dtype): the new default floating-point dtype.
    
    Example::
    
        >>> engine.set_default_dtype(engine.float64)
        >>> engine.tensor([1.5]).dtype
        torch.float64
        >>> engine.set_default_dtype(engine.float32)
    """
def set_num_threads(n: typing.SupportsInt | typing.SupportsIndex) -> None:
    """
    set_num_threads(int) -> None
    
    Sets how many threads the native kernels may use for large tensors.
    
    Args:
        int (int): the number of threads, at least 1.
    
    Example::
    
        >>> n = engine.get_num_threads()
        >>> engine.set_num_threads(1)
        >>> engine.get_num_threads()
        1
        >>> engine.set_num_threads(n)
    """
def sgn(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    sgn(input, *, out=None) -> Tensor
    
    ``z / abs(z)`` for each element of a complex ``input`` (0 where it is 0), and
    :func:`engine.sign` of a real one.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.sgn(engine.tensor([3 + 4j, 0j]))
        tensor([0.6000+0.8000j, 0.0000+0.0000j])
    """
def sigmoid(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    sigmoid(input, *, out=None) -> Tensor
    
    Logistic sigmoid :math:`1 / (1 + e^{-x})` of each element.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.sigmoid(engine.tensor([0.0, 2.0]))
        tensor([0.5000, 0.8808])
    """
def sign(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    sign(input, *, out=None) -> Tensor
    
    Sign of each element: -1, 0 or 1 (in the input's dtype; ``False``/``True`` for bool).
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.sign(engine.tensor([-3.0, 0.0, 2.5]))
        tensor([-1.,  0.,  1.])
    """
def signbit(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    signbit(input, *, out=None) -> Tensor
    
    Whether the sign bit of each element is set, as a bool tensor (``True`` for ``-0.0``).
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.signbit(engine.tensor([-1.0, 0.0, -0.0, 2.0]))
        tensor([ True, False,  True, False])
    """
def silu(input: Tensor) -> Tensor:
    """
    F.silu as one node (SiluBackward0).
    """
def silu_(input: Tensor) -> Tensor:
    """
    In-place silu: one node (SiluBackward0).
    """
def sin(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    sin(input, *, out=None) -> Tensor
    
    Sine of each element (in radians).
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.sin(engine.tensor([0.0, 1.5707964]))
        tensor([0., 1.])
    """
def sinc(input: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    sinc(input, *, out=None) -> Tensor
    
    Normalized sinc :math:`\\sin(\\pi x) / (\\pi x)` of each element, 1 at 0.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.sinc(engine.tensor([0.0, 0.5]))
        tensor([1.0000, 0.6366])
    """
def sinh(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    sinh(input, *, out=None) -> Tensor
    
    Hyperbolic sine of each element.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.sinh(engine.tensor([0.0, 1.0]))
        tensor([0.0000, 1.1752])
    """
def softplus(input: Tensor, beta: typing.Any = 1, threshold: typing.Any = 20) -> Tensor:
    """
    F.softplus as one node (SoftplusBackward0).
    """
def sqrt(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    sqrt(input, *, out=None) -> Tensor
    
    Square root of each element; NaN where an element is negative. Integer inputs give the default
    float dtype.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.sqrt(engine.tensor([4.0, 9.0]))
        tensor([2., 3.])
    """
@typing.overload
def squeeze(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex | None = None) -> Tensor:
    ...
@typing.overload
def squeeze(input: Tensor, dim: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> Tensor:
    """
    squeeze(input, dim=None) -> Tensor
    
    A view of ``input`` without its dimensions of size 1 (or only ``dim``, if it has size 1).
    
    Args:
        input (Tensor): the input tensor.
        dim (int, optional): the only dimension to remove. Default: all of size 1.
    
    Example::
    
        >>> engine.squeeze(engine.zeros(1, 2, 1)).shape
        torch.Size([2])
    """
def stack(tensors: typing.Any, dim: typing.SupportsInt | typing.SupportsIndex = 0) -> Tensor:
    """
    stack(tensors, dim=0) -> Tensor
    
    Joins tensors of the same shape along a new dimension ``dim``.
    
    Args:
        tensors (sequence of Tensors): the tensors to join.
        dim (int): where the new dimension goes. Default: 0.
    
    Example::
    
        >>> engine.stack([engine.tensor([1, 2]), engine.tensor([3, 4])], dim=1)
        tensor([[1, 3],
                [2, 4]])
    """
def std(input: Tensor, dim: typing.Any = None, unbiased: typing.Any = None, keepdim: bool = False, *, correction: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    std(input, dim=None, *, correction=1, keepdim=False) -> Tensor
    
    Standard deviation over ``dim`` (all elements by default): the square root of :func:`var`.
    ``correction=1`` (Bessel's) divides by ``N - 1``; ``correction=0`` by ``N``. The older
    ``unbiased`` (bool) argument is accepted too.
    
    Args:
        input (Tensor): the input tensor.
        dim (int or tuple of ints, optional): the dimension(s) to reduce. Default: all.
        keepdim (bool): whether the reduced dimensions are kept with size 1. Default: ``False``.
    
    Keyword args:
        correction (int): the difference between ``N`` and the divisor. Default: 1.
    
    Example::
    
        >>> engine.std(engine.tensor([1.0, 2.0, 3.0, 4.0]))
        tensor(1.2910)
    """
def sub(input: typing.Any, other: typing.Any, *, alpha: typing.Any = 1, out: typing.Any = None) -> typing.Any:
    """
    sub(input, other, *, alpha=1, out=None) -> Tensor
    
    Subtracts ``other``, scaled by ``alpha``, from ``input``. Alias: :func:`engine.subtract`.
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the tensor or number to subtract.
    
    Keyword args:
        alpha (Number): the multiplier for ``other``.
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.sub(engine.tensor([5.0, 7.0]), engine.tensor([1.0, 2.0]), alpha=2)
        tensor([3., 3.])
    """
def t(arg0: Tensor) -> Tensor:
    """
    t(input) -> Tensor
    
    Transposes a tensor of at most 2 dimensions (0-d and 1-d tensors are returned as they are):
    ``transpose(input, 0, 1)``.
    
    Args:
        input (Tensor): the input tensor.
    
    Example::
    
        >>> engine.t(engine.tensor([[1, 2], [3, 4]]))
        tensor([[1, 3],
                [2, 4]])
    """
def tan(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    tan(input, *, out=None) -> Tensor
    
    Tangent of each element (in radians).
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.tan(engine.tensor([0.0, 0.7853982]))
        tensor([0., 1.])
    """
def tanh(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    tanh(input, *, out=None) -> Tensor
    
    Hyperbolic tangent of each element, in (-1, 1).
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.tanh(engine.tensor([0.0, 1.0]))
        tensor([0.0000, 0.7616])
    """
def tensor(data: typing.Any, **kwargs) -> Tensor:
    """
    tensor(data, *, dtype=None, device=None, requires_grad=False) -> Tensor
    
    Constructs a new tensor by copying ``data``: a number, a (nested) list or tuple, a NumPy array
    or another tensor. The dtype is inferred from the data (bool, int64, the default float dtype)
    unless given. Use :func:`as_tensor` or :func:`from_numpy` to avoid the copy.
    
    Args:
        data: the values.
    
    Keyword args:
        dtype (engine.dtype, optional): the result's dtype. Default: inferred.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool, optional): whether autograd records operations on the result.
            Default: ``False``.
    
    Example::
    
        >>> engine.tensor([[1, 2], [3, 4]])
        tensor([[1, 2],
                [3, 4]])
        >>> engine.tensor(3.5, dtype=engine.float64)
        tensor(3.5000, dtype=torch.float64)
    """
def threshold(input: Tensor, threshold: typing.Any, value: typing.SupportsFloat | typing.SupportsIndex) -> Tensor:
    """
    F.threshold as one node (ThresholdBackward0).
    """
def transpose(input: Tensor, dim0: typing.SupportsInt | typing.SupportsIndex, dim1: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
    """
    transpose(input, dim0, dim1) -> Tensor
    
    A view of ``input`` with dimensions ``dim0`` and ``dim1`` swapped; it shares memory with
    ``input``. Alias: :func:`engine.swapaxes`.
    
    Args:
        input (Tensor): the input tensor.
        dim0 (int): the first dimension.
        dim1 (int): the second dimension.
    
    Example::
    
        >>> engine.transpose(engine.zeros(2, 3), 0, 1).shape
        torch.Size([3, 2])
    """
def trunc(input: Tensor, *, out: typing.Any = None) -> typing.Any:
    """
    trunc(input, *, out=None) -> Tensor
    
    Rounds each element toward zero. Alias: :func:`engine.fix`.
    
    Args:
        input (Tensor): the input tensor.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.trunc(engine.tensor([1.7, -1.7]))
        tensor([ 1., -1.])
    """
def unsqueeze(input: Tensor, dim: typing.SupportsInt | typing.SupportsIndex) -> Tensor:
    """
    unsqueeze(input, dim) -> Tensor
    
    A view of ``input`` with a dimension of size 1 inserted at position ``dim`` (negative ``dim``
    counts from the end of the result).
    
    Args:
        input (Tensor): the input tensor.
        dim (int): where the new dimension goes.
    
    Example::
    
        >>> engine.unsqueeze(engine.tensor([1, 2]), 1)
        tensor([[1],
                [2]])
    """
def var(input: Tensor, dim: typing.Any = None, unbiased: typing.Any = None, keepdim: bool = False, *, correction: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    var(input, dim=None, *, correction=1, keepdim=False) -> Tensor
    
    Variance over ``dim`` (all elements by default): the mean squared deviation from the mean,
    divided by ``N - correction``. The older ``unbiased`` (bool) argument is accepted too.
    
    Args:
        input (Tensor): the input tensor.
        dim (int or tuple of ints, optional): the dimension(s) to reduce. Default: all.
        keepdim (bool): whether the reduced dimensions are kept with size 1. Default: ``False``.
    
    Keyword args:
        correction (int): the difference between ``N`` and the divisor. Default: 1.
    
    Example::
    
        >>> engine.var(engine.tensor([1.0, 2.0, 3.0, 4.0]), correction=0)
        tensor(1.2500)
    """
def view_as_complex(input: Tensor) -> Tensor:
    ...
def view_as_real(input: Tensor) -> Tensor:
    ...
def where(condition: Tensor, input: typing.Any = None, other: typing.Any = None) -> typing.Any:
    """
    where(condition, input, other) -> Tensor
    where(condition) -> tuple of Tensors
    
    Takes ``input`` where ``condition`` is true and ``other`` elsewhere, all three broadcast;
    ``input`` and ``other`` may be numbers. With ``condition`` alone, the same as
    ``nonzero(condition, as_tuple=True)``.
    
    Args:
        condition (Tensor): a bool tensor.
        input (Tensor or Number): the values where ``condition`` holds.
        other (Tensor or Number): the values elsewhere.
    
    Example::
    
        >>> x = engine.tensor([-1.0, 2.0, -3.0])
        >>> engine.where(x > 0, x, 0.0)
        tensor([0., 2., 0.])
    """
def xlogy(input: typing.Any, other: typing.Any, *, out: typing.Any = None) -> typing.Any:
    """
    xlogy(input, other, *, out=None) -> Tensor
    
    Computes ``input * log(other)``, defined as 0 where ``input`` is 0 (unless ``other`` is NaN).
    
    ``input`` and ``other`` broadcast to a common shape; the result has their promoted dtype.
    
    Args:
        input (Tensor or Number): the first operand.
        other (Tensor or Number): the second operand.
    
    Keyword args:
        out (Tensor, optional): the output tensor.
    
    Example::
    
        >>> engine.xlogy(engine.tensor([0.0, 2.0]), engine.tensor([0.0, 1.0]))
        tensor([0., 0.])
    """
def zeros(*args, **kwargs) -> Tensor:
    """
    zeros(*size, *, dtype=None, device=None, requires_grad=False) -> Tensor
    
    A tensor of the given shape filled with zeros.
    
    Args:
        *size (int...): the shape, as several ints or one list, tuple or :class:`Size`.
    
    Keyword args:
        dtype (engine.dtype, optional): the result's dtype. Default: the default dtype
            (:func:`get_default_dtype`), or inferred from the arguments where stated.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool, optional): whether autograd records operations on the result.
            Default: ``False``.
    
    Example::
    
        >>> engine.zeros(2, 3)
        tensor([[0., 0., 0.],
                [0., 0., 0.]])
    """
def zeros_like(input: Tensor, **kwargs) -> Tensor:
    """
    zeros_like(input, *, dtype=None, device=None, requires_grad=False) -> Tensor
    
    A tensor with the shape (and, unless ``dtype`` is given, the dtype) of ``input``, filled with
    zeros.
    
    Args:
        input (Tensor): the tensor whose shape is taken.
    
    Keyword args:
        dtype (engine.dtype, optional): the result's dtype. Default: ``input``'s.
        device (str or engine.device, optional): only ``'cpu'`` is supported.
        requires_grad (bool, optional): whether autograd records operations on the result.
            Default: ``False``.
    
    Example::
    
        >>> engine.zeros_like(engine.tensor([[1, 2]]))
        tensor([[0, 0]])
    """
bfloat16: dtype
bool: dtype
complex128: dtype
complex64: dtype
default_generator: Generator
float16: dtype
float32: dtype
float64: dtype
int16: dtype
int32: dtype
int64: dtype
int8: dtype
uint8: dtype

class _autograd:
    SavedTensor = SavedTensor
