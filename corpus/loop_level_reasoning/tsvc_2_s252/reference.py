import numpy as np


def tsvc_2_s252(a, b, c, N):
    """a[i] = b[i]*c[i] + b[i-1]*c[i-1] for i >= 1, a[0] = b[0]*c[0]."""
    s = b * c
    a[0] = s[0]
    a[1:] = s[1:] + s[:N - 1]
