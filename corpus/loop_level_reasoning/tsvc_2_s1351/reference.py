import numpy as np


def tsvc_2_s1351(a, b, c, N):
    """a = b + c, written into a in place."""
    a[:] = b + c
