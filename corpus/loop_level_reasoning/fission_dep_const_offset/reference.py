import numpy as np


def fission_dep_const_offset(a, b, x, y, z, N):
    """a: running sums of x over the even and over the odd indices; b[i] = y[i]*z[i] for i >= 2."""
    a[0::2] = np.cumsum(x[0::2])
    a[1::2] = np.cumsum(x[1::2])
    b[2:] = y[2:] * z[2:]
