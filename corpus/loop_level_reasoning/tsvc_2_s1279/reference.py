import numpy as np


def tsvc_2_s1279(a, b, c, d, e, N):
    """c[i] += d[i]*e[i] wherever a[i] < 0 and b[i] > a[i]; other elements of c are unchanged."""
    mask = (a < 0) & (b > a)
    c[mask] += d[mask] * e[mask]
