import numpy as np


def scan_strided_sym(a, x, K, N):
    """a[i] = a[i-K] + x[i] for i >= K: K independent running sums, one per residue modulo K."""
    for r in range(K):
        t = x[r::K].copy()
        t[0] = a[r]
        a[r::K] = np.cumsum(t)
