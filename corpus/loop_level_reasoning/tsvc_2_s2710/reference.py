import numpy as np


def tsvc_2_s2710(a, b, c, d, e, N, x):
    """Where a > b: a += b*d, c += d*d; elsewhere b = a + e*e, c = a + d*d (for N > 10, x > 0)."""
    m = a > b
    n = ~m
    if N > 10:
        c[m] += d[m] * d[m]
    else:
        c[m] = d[m] * e[m] + 1
    a[m] += b[m] * d[m]
    b[n] = a[n] + e[n] * e[n]
    if x > 0:
        c[n] = a[n] + d[n] * d[n]
    else:
        c[n] += e[n] * e[n]
