import numpy as np


def tsvc_2_s4114(a, b, c, d, ip, N, n1):
    """a[i] = b[i] + c[N - ip[i] - 1] * d[i] for i = n1-1..N-1."""
    lo = n1 - 1
    a[lo:] = b[lo:] + c[N - 1 - ip[lo:]] * d[lo:]
