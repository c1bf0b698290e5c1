import numpy as np


def ext_break_find_first(a, b, c, d, N):
    """a[i] += b[i] * c[i] for every i before the first d[i] with d[i] * N < 2 (all i when none)."""
    hits = np.flatnonzero(d * N < 2)
    k = hits[0] if hits.size > 0 else N
    a[:k] += b[:k] * c[:k]
