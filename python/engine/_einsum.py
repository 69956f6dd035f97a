"""engine.einsum: one- and two-operand contractions, written with differentiable ops (diagonals by
an identity mask, sums, permutes, reshapes and one bmm), so gradients of every order come free."""

from engine import _C


def _parse(equation, n_ops):
    eq = equation.replace(" ", "")
    if "->" in eq:
        lhs, out = eq.split("->")
    else:
        lhs, out = eq, None
    terms = lhs.split(",")
    if len(terms) > n_ops:
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    if len(terms) < n_ops:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    for t in terms + ([out] if out else []):
        for c in t:
            if not c.isalpha():
                raise RuntimeError(
                    f"einsum(): invalid subscript given at index {eq.index(c)} in the equation "
                    "string, "
                    "subscripts must be in [a-zA-Z]"
                )
    if out is None:
        # Implicit output: the labels that appear once, in alphabetical order.
        counts = {}
        for t in terms:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        out = "".join(sorted(c for c, k in counts.items() if k == 1))
    return terms, out


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


def _prepare(x, term, keep, name_index):
    if len(term) != x.dim():
        raise RuntimeError(
            f"einsum(): the number of subscripts in the equation ({len(term)}) does not match "
            f"the number of dimensions ({x.dim()}) for operand {name_index} and no ellipsis "
            "was given"
        )
    x, term = _take_diagonals(x, term)
    # Sum away labels that no one else needs.
    drop = [i for i, c in enumerate(term) if c not in keep]
    if drop:
        x = x.sum(tuple(drop))
        term = "".join(c for c in term if c in keep)
    return x, term


def einsum(equation, *operands):
    """Einstein summation over one or two operands (``'ij,jk->ik'``, ``'ii->i'``, ...)."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    terms, out = _parse(equation, len(operands))
    if len(operands) == 1:
        x, term = _prepare(operands[0], terms[0], set(out), 0)
        return x.permute(*[term.index(c) for c in out]) if term else x
    if len(operands) != 2:
        raise NotImplementedError("einsum(): engine supports one or two operands")
    a, b = operands
    ta, tb = terms
    sizes = {}
    for k, (x, t) in enumerate(((a, ta), (b, tb))):
        for c, s in zip(t, x.shape):
            if c in sizes and sizes[c] != s:
                raise RuntimeError(
                    f"einsum(): subscript {c} has size {s} for operand {k} which does not "
                    f"broadcast with previously seen size {sizes[c]}"
                )
            sizes.setdefault(c, s)
    a, ta = _prepare(a, ta, set(out) | set(tb), 0)
    b, tb = _prepare(b, tb, set(out) | set(ta), 1)
    batch = [c for c in ta if c in tb and c in out]
    contract = [c for c in ta if c in tb and c not in out]
    left = [c for c in ta if c not in tb]
    right = [c for c in tb if c not in ta]

    def size(labels):
        n = 1
        for c in labels:
            n *= sizes[c]
        return n

    a = a.permute(*[ta.index(c) for c in batch + left + contract]).reshape(
        size(batch), size(left), size(contract)
    )
    b = b.permute(*[tb.index(c) for c in batch + contract + right]).reshape(
        size(batch), size(contract), size(right)
    )
    r = _C.bmm(a, b).reshape(*[sizes[c] for c in batch + left + right])
    order = batch + left + right
    return r.permute(*[order.index(c) for c in out]) if out else r
