import numpy as np


def loop_to_map_disjoint_strided(a, b, N):
    """a[2i] = b[i] + 1, a[2i+1] = 2*b[i]."""
    a[0::2] = b + 1
    a[1::2] = b * 2
