import numpy as np


def tsvc_2_s253(a, b, c, d, N):
    """Where a > b: s = a - b*d, c += s, a = s; elsewhere a and c are left unchanged."""
    mask = a > b
    s = a[mask] - b[mask] * d[mask]
    c[mask] += s
    a[mask] = s
