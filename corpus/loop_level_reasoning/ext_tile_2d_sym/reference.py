import numpy as np


def ext_tile_2d_sym(a, b, N, T):
    """b = 2*a (the T x T tiles cover the array exactly once since N % T == 0)."""
    b[:, :] = a * 2
