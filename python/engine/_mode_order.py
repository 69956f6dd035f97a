"""PyTorch's CPU mode: libstdc++'s std::sort of (value, index) pairs compared by value with
``<``, then the first longest run of equal values, reported by its last element. With NaNs (which
compare false both ways) or past 16 elements (where std::sort is no longer an insertion sort)
which index among equal values it reports depends on that exact sort, so it is replayed here."""


def _less(a, b):
    return a[0] < b[0]


def _insertion_sort(v, first, last):
    for i in range(first + 1, last):
        if _less(v[i], v[first]):
            val = v[i]
            v[first + 1 : i + 1] = v[first:i]
            v[first] = val
        else:
            _unguarded_linear_insert(v, i)


def _unguarded_linear_insert(v, last):
    val = v[last]
    nxt = last - 1
    while _less(val, v[nxt]):
        v[last] = v[nxt]
        last = nxt
        nxt -= 1
    v[last] = val


def _move_median_to_first(v, result, a, b, c):
    if _less(v[a], v[b]):
        if _less(v[b], v[c]):
            pick = b
        elif _less(v[a], v[c]):
            pick = c
        else:
            pick = a
    elif _less(v[a], v[c]):
        pick = a
    elif _less(v[b], v[c]):
        pick = c
    else:
        pick = b
    v[result], v[pick] = v[pick], v[result]


def _unguarded_partition(v, first, last, pivot):
    while True:
        while _less(v[first], v[pivot]):
            first += 1
        last -= 1
        while _less(v[pivot], v[last]):
            last -= 1
        if not first < last:
            return first
        v[first], v[last] = v[last], v[first]
        first += 1


def _introsort_loop(v, first, last, depth):
    while last - first > 16:
        if depth == 0:
            # std::sort's heapsort fallback; reached only by adversarial orders, and replayed
            # here by a plain sort (NaNs last), which can pick another index among equals.
            v[first:last] = sorted(v[first:last], key=lambda p: (p[0] != p[0], p[0]))
            return
        depth -= 1
        mid = first + (last - first) // 2
        _move_median_to_first(v, first, first + 1, mid, last - 1)
        cut = _unguarded_partition(v, first + 1, last, first)
        _introsort_loop(v, cut, last, depth)
        last = cut


def std_sort(v):
    """Sorts the list ``v`` of (value, index) pairs in place as std::sort does; returns it."""
    n = len(v)
    if n < 2:
        return v
    _introsort_loop(v, 0, n, 2 * (n.bit_length() - 1))
    if n > 16:
        _insertion_sort(v, 0, 16)
        for i in range(16, n):
            _unguarded_linear_insert(v, i)
    else:
        _insertion_sort(v, 0, n)
    return v


def mode_row(values):
    """(value, index) PyTorch's mode gives for one slice (a list of Python numbers)."""
    e = std_sort([(x, k) for k, x in enumerate(values)])
    best, best_i, run, freq = None, 0, 0, 0
    for i in range(len(e)):
        run += 1
        if i == len(e) - 1 or e[i][0] != e[i + 1][0]:
            if run > freq:
                best, best_i, freq = e[i][0], e[i][1], run
            run = 0
    return best, best_i
