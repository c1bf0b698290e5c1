import numpy as np


def heat3d_tiled_sym(a, b, N, T):
    """b[k, j, i] = a + 0.125 * (the three second differences of a), over the cube the full T^3 tiles cover."""
    nt = (N - 3) // T  # tiles per axis: origins 1, 1+T, ... below N-1-T
    e = 1 + nt * T
    c = a[1:e, 1:e, 1:e]
    b[1:e, 1:e, 1:e] = (0.125 * (a[2:e + 1, 1:e, 1:e] - 2.0 * c + a[0:e - 1, 1:e, 1:e])
                        + 0.125 * (a[1:e, 2:e + 1, 1:e] - 2.0 * c + a[1:e, 0:e - 1, 1:e])
                        + 0.125 * (a[1:e, 1:e, 2:e + 1] - 2.0 * c + a[1:e, 1:e, 0:e - 1]) + c)
