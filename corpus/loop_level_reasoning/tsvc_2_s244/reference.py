import numpy as np


def tsvc_2_s244(a, b, c, d, N):
    """a[i] = b[i] + c[i]*d[i] and b[i] += c[i] for i < N-1; a[N-1] = b[N-2] + a[N-1]*d[N-2]."""
    a[:N - 1] = b[:N - 1] + c[:N - 1] * d[:N - 1]
    b[:N - 1] = c[:N - 1] + b[:N - 1]
    a[N - 1] = b[N - 2] + a[N - 1] * d[N - 2]  # the only surviving third statement
