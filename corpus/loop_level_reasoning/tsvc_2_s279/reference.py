import numpy as np


def tsvc_2_s279(a, b, c, d, e, N):
    """Where a > 0: c = -c + e*e; else b = -b + d*d and, where that b > a, c += d*e; then a = b + c*d."""
    pos = a > 0
    newb = -b + d * d
    addc = ~pos & (newb > a)
    b[:] = np.where(pos, b, newb)
    c[:] = np.where(pos, -c + e * e, np.where(addc, c + d * e, c))
    a[:] = b + c * d
