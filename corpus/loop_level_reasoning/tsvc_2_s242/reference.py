import numpy as np


def tsvc_2_s242(a, b, c, d, N, s1, s2):
    """Running sum a[i] = a[i-1] + s1 + s2 + b[i] + c[i] + d[i] for i >= 1."""
    a[1:] = s1 + s2 + b[1:] + c[1:] + d[1:]
    a[:] = np.cumsum(a)  # running sum starting from the old a[0]
