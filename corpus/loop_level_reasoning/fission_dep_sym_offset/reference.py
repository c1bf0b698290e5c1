import numpy as np


def fission_dep_sym_offset(a, b, x, y, z, K, N):
    """a[i] = a[i-K] + x[i] for i >= K (K interleaved running sums); b[i] = y[i]*z[i] for i >= K."""
    for r in range(min(K, N)):
        chain = a[r::K].copy()  # a[r], a[r+K], ...: the seed, then the elements it accumulates into
        chain[1:] = x[r + K::K]
        a[r::K] = np.cumsum(chain)
    b[K:] = y[K:] * z[K:]
