import numpy as np


def tsvc_2_s261(a, b, c, d, N):
    """c[i] *= d[i] for i >= 1, then a[i] = (a[i] + b[i]) + c[i-1] with the updated c."""
    c[1:] = c[1:] * d[1:]
    a[1:] = (a[1:] + b[1:]) + c[:N - 1]  # c[i-1] already updated (c[0] unchanged)
