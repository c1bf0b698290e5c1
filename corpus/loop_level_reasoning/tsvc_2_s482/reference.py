import numpy as np


def tsvc_2_s482(a, b, c, N):
    """a[i] += b[i]*c[i] for i up to and including the first i with c[i] > b[i] (all i if there is none)."""
    hit = np.nonzero(c > b)[0]
    n = hit[0] + 1 if hit.size > 0 else N
    a[:n] += b[:n] * c[:n]
