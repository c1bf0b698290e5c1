import numpy as np


def tsvc_2_s2244(a, b, c, e, N):
    """a[i] = b[i] + c[i] for i < N-1 and a[N-1] = b[N-2] + e[N-2]."""
    a[:N - 1] = b[:N - 1] + c[:N - 1]
    a[N - 1] = b[N - 2] + e[N - 2]
