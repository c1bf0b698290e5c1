import numpy as np


def quasi_affine_floor_div_scatter(a, b, N):
    """b[k] += a[2k], then b[k] += a[2k+1], for every k < N."""
    b += a[0::2]
    b += a[1::2]
