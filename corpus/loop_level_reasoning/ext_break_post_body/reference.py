import numpy as np


def ext_break_post_body(a, b, c, N):
    """a[i] += b[i] * c[i] for every i up to and including the first c[i] with c[i] * N < 2."""
    hits = np.flatnonzero(c * N < 2)
    k = hits[0] + 1 if hits.size > 0 else N
    a[:k] += b[:k] * c[:k]
