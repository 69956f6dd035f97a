"""The dimension order of a dense tensor that is not row-major (a transposed or permuted one).

PyTorch allocates the results of several copying ops (sort, argsort, flip, ...) like their input
when the input is dense without overlap (``empty_like`` with ``preserve_format``), so a transposed
input gives a transposed result. Such ops compute in the permuted, row-major space and permute
back."""


def dense_order(input):
    """The dims of a dense, non-overlapping but not row-major input from the largest stride to the
    smallest (``input.permute(order)`` is then contiguous); None for a contiguous input, for one
    with gaps or repeated elements, and below 2 dims."""
    if input.dim() < 2 or input.is_contiguous():
        return None
    strides = input.stride()
    order = sorted(range(input.dim()), key=lambda d: -strides[d])
    expected = 1
    for d in reversed(order):
        if input.shape[d] != 1 and strides[d] != expected:
            return None
        expected *= input.shape[d]
    return order


def inverse(order):
    """The permutation that undoes ``order``."""
    return sorted(range(len(order)), key=order.__getitem__)
