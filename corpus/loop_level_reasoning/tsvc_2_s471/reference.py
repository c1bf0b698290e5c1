import numpy as np


def tsvc_2_s471(b, c, d, e, x, N):
    """x = b + d*d using the old b, then b = c + d*e."""
    x[:] = b + d * d
    b[:] = c + d * e
