import numpy as np


def tsvc_2_s1251(a, b, c, d, e, N):
    """s = b + c; b = a + d; a = s * e (all with the original a and b)."""
    s = b + c
    b[:] = a + d
    a[:] = s * e
