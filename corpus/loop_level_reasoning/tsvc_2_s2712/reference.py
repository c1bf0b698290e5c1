import numpy as np


def tsvc_2_s2712(a, b, c, N):
    """a[i] += b[i] * c[i] wherever a[i] > b[i]; other elements of a are left unchanged."""
    mask = a > b
    a[mask] += b[mask] * c[mask]
