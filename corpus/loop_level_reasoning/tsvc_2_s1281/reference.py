import numpy as np


def tsvc_2_s1281(a, b, c, d, e, N):
    """x = b*c + a*d + e elementwise; then a = x - 1 and b = x."""
    x = b * c + a * d + e
    a[:] = x - 1.0
    b[:] = x
