import numpy as np


def tsvc_2_s2711(a, b, c, N):
    """a[i] += b[i] * c[i] wherever b[i] != 0; other elements of a are left unchanged."""
    mask = b != 0
    a[mask] += b[mask] * c[mask]
