import numpy as np


def s000(a, b, N):
    """a = b + 1, written into a in place."""
    a[:] = b + 1
