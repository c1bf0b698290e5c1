import numpy as np


def scan_multi_carry(a, b, x, y, N):
    """a = a[0] then running sums of x[1:]; b = b[0] then running products of y[1:]."""
    t = x.copy()
    t[0] = a[0]
    a[:] = np.cumsum(t)
    p = y.copy()
    p[0] = b[0]
    b[:] = np.cumprod(p)
