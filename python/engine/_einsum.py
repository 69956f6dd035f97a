"""engine.einsum: Einstein summation over any number of operands, with ``...`` and broadcasting,
written with differentiable ops (diagonals by an identity mask, sums, permutes, reshapes and
bmm), so gradients of every order come free. Operands are contracted left to right, each step
keeping only the labels that a later operand or the output still needs."""

from engine import _C

# string.ascii_letters, spelled out: importing string compiles a regular expression, a cost
# `import engine` would pay for one constant.
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _split(equation, n_ops):
    eq = equation.replace(" ", "")
    lhs, arrow, out = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) > n_ops:
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    if len(terms) < n_ops:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    for t in terms + ([out] if arrow else []):
        for c in t.replace("...", ""):
            if c not in _LETTERS:
                raise RuntimeError(
                    f"einsum(): invalid subscript given at index {eq.index(c)} in the equation string, "
                    "subscripts must be in [a-zA-Z]"
                )
        if t.count("...") > 1 or "." in t.replace("...", ""):
            raise RuntimeError("einsum(): found '.' for operand that is not part of any ellipsis")
    return terms, (out if arrow else None)


def _expand_ellipses(terms, out, operands):
    """Replaces each '...' by labels of its own (letters the equation does not use), right-aligned
    across operands as broadcasting aligns dims; returns the terms, the output and the labels."""
    used = set("".join(terms) + (out or ""))
    spare = [c for c in _LETTERS if c not in used]
    widest = 0
    for i, (t, x) in enumerate(zip(terms, operands)):
        if "..." in t:
            widest = max(widest, x.dim() - (len(t) - 3))
            if x.dim() < len(t) - 3:
                raise RuntimeError(
                    f"einsum(): the number of subscripts in the equation ({len(t) - 3}) is more than the "
                    f"number of dimensions ({x.dim()}) for operand {i}"
                )
    ellipsis = "".join(spare[:widest])
    expanded = []
    for t, x in zip(terms, operands):
        if "..." in t:
            n = x.dim() - (len(t) - 3)
            t = t.replace("...", ellipsis[widest - n :] if n else "")
        expanded.append(t)
    if out is None:
        # Implicit output: the ellipsis dims, then the labels that appear once, alphabetically.
        counts = {}
        for t in expanded:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        singles = "".join(sorted(c for c, k in counts.items() if k == 1 and c not in ellipsis))
        out = ellipsis + singles
    else:
        # An explicit output without '...' sums the ellipsis dims away.
        out = out.replace("...", ellipsis)
    return expanded, out


def _take_diagonals(x, term):
    """Collapses repeated labels of one operand (``ii`` -> ``i``) to their diagonal."""
    while True:
        seen = {}
        for i, c in enumerate(term):
            if c in seen:
                j = seen[c]
                n = x.shape[j]
                idx = _C.arange(n)
                shape = [1] * x.dim()
                shape[j] = n
                rows = idx.reshape(shape)
                shape = [1] * x.dim()
                shape[i] = n
                eye = rows == idx.reshape(shape)
                x = (x * eye).sum(i)
                term = term[:i] + term[i + 1 :]
                break
            seen[c] = i
        else:
            return x, term


def _label_sizes(terms, operands):
    """Each label's size; a size of 1 broadcasts against any other."""
    sizes = {}
    for k, (t, x) in enumerate(zip(terms, operands)):
        if len(t) != x.dim():
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({len(t)}) does not match the number "
                f"of dimensions ({x.dim()}) for operand {k} and no ellipsis was given"
            )
        for c, s in zip(t, x.shape):
            if c in sizes and sizes[c] != s and s != 1 and sizes[c] != 1:
                raise RuntimeError(
                    f"einsum(): subscript {c} has size {s} for operand {k} which does not broadcast with "
                    f"previously seen size {sizes[c]}"
                )
            if c not in sizes or sizes[c] == 1:
                sizes[c] = s
    return sizes


def _prepare(x, term, keep, sizes):
    """Diagonals taken, labels nobody needs summed away, size-1 dims broadcast to their label's size."""
    x, term = _take_diagonals(x, term)
    drop = [i for i, c in enumerate(term) if c not in keep]
    if drop:
        x = x.sum(tuple(drop))
        term = "".join(c for c in term if c in keep)
    target = [sizes[c] for c in term]
    if list(x.shape) != target:
        x = x.expand(*target)
    return x, term


def _size(labels, sizes):
    n = 1
    for c in labels:
        n *= sizes[c]
    return n


def _contract(a, ta, b, tb, keep, sizes):
    """a and b contracted over their shared labels not in `keep`; the result's labels are returned
    in the order batch, left, right."""
    batch = [c for c in ta if c in tb and c in keep]
    contract = [c for c in ta if c in tb and c not in keep]
    left = [c for c in ta if c not in tb]
    right = [c for c in tb if c not in ta]
    a = a.permute(*[ta.index(c) for c in batch + left + contract]).reshape(
        _size(batch, sizes), _size(left, sizes), _size(contract, sizes)
    )
    b = b.permute(*[tb.index(c) for c in batch + contract + right]).reshape(
        _size(batch, sizes), _size(contract, sizes), _size(right, sizes)
    )
    order = batch + left + right
    if a.dtype == _C.bool:
        # PyTorch multiplies when nothing is contracted and otherwise calls bmm, whose kernel
        # has no bool form.
        if contract:
            raise NotImplementedError("\"bmm\" not implemented for 'Bool'")
        return (a * b).reshape(*[sizes[c] for c in order]), "".join(order)
    return _C.bmm(a, b).reshape(*[sizes[c] for c in order]), "".join(order)


def einsum(equation, *operands):
    """Einstein summation: multiplies the operands along the subscripts the ``equation`` gives
    them and sums over the subscripts missing from the output.

    The equation lists one subscript string per operand, separated by commas, then optionally
    ``->`` and the output's subscripts (without it, the subscripts that appear once, in
    alphabetical order). A repeated subscript within one operand takes a diagonal; ``...``
    stands for broadcast dimensions.

    Args:
        equation (str): the subscripts, such as ``'ij,jk->ik'``.
        *operands (Tensor): the tensors, one per subscript string (or one list of them).

    Example::

        >>> a = engine.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> engine.einsum('ij,jk->ik', a, a)
        tensor([[ 7., 10.],
                [15., 22.]])
        >>> engine.einsum('ii', a)
        tensor(5.)
        >>> engine.einsum('i,j->ij', engine.tensor([1.0, 2.0]), engine.tensor([3.0, 4.0]))
        tensor([[3., 4.],
                [6., 8.]])
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    terms, out = _split(equation, len(operands))
    terms, out = _expand_ellipses(terms, out, operands)
    for c in out:
        if out.count(c) > 1:
            raise RuntimeError(
                f"einsum(): output subscript {c} appears more than once in the output"
            )
        if not any(c in t for t in terms):
            raise RuntimeError(
                f"einsum(): output subscript {c} does not appear in the equation for any input operand"
            )
    sizes = _label_sizes(terms, operands)
    needed_later = [set(out).union(*terms[k + 1 :]) for k in range(len(terms))]
    x, tx = _prepare(
        operands[0], terms[0], needed_later[0] | set(terms[1] if len(terms) > 1 else ""), sizes
    )
    for k in range(1, len(operands)):
        y, ty = _prepare(operands[k], terms[k], needed_later[k] | set(tx), sizes)
        x, tx = _contract(x, tx, y, ty, needed_later[k], sizes)
    # Labels still present but not wanted (a one-operand einsum keeps what _prepare kept).
    drop = [i for i, c in enumerate(tx) if c not in out]
    if drop:
        x = x.sum(tuple(drop))
        tx = "".join(c for c in tx if c in out)
    return x.permute(*[tx.index(c) for c in out]) if out else x
