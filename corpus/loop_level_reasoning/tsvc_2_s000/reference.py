import numpy as np


def tsvc_2_s000(a, b, N):
    """a = b + 1, written into a in place."""
    a[:] = b + 1
