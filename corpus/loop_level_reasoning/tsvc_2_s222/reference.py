import numpy as np


def tsvc_2_s222(a, b, c, e, N):
    """a[i] = (a[i] + b[i]*c[i]) - b[i]*c[i] for i >= 1, and the recurrence e[i] = e[i-1]**2."""
    bc = b[1:] * c[1:]
    a[1:] = (a[1:] + bc) - bc
    for i in range(1, N):
        e[i] = e[i - 1] * e[i - 1]
