import numpy as np


def tsvc_2_s272(a, b, c, d, e, N, t):
    """Wherever e[i] >= t: a[i] += c[i] * d[i] and b[i] += c[i] * c[i]; elsewhere a and b are unchanged."""
    mask = e >= t
    a[mask] += c[mask] * d[mask]
    b[mask] += c[mask] * c[mask]
