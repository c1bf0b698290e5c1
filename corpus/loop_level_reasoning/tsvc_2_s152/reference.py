import numpy as np


def tsvc_2_s152(a, b, c, d, e, N):
    """b = d*e, then a += b*c, elementwise."""
    b[:] = d * e
    a += b * c
