import numpy as np


def tsvc_2_s278(a, b, c, d, e, N):
    """Where a > 0: c = -c + d*e, else b = -b + d*e; then a = b + c*d with the updated b and c."""
    pos = a > 0
    de = d * e
    c[:] = np.where(pos, -c + de, c)
    b[:] = np.where(pos, b, -b + de)
    a[:] = b + c * d
