import numpy as np


def tsvc_2_s211(a, b, c, d, e, N):
    """In order for i = 1..N-2: a[i] = b[i-1] + c[i]*d[i], then b[i] = b[i+1] - e[i]*d[i]."""
    bn = b[2:] - e[1:N - 1] * d[1:N - 1]  # the new b[1..N-2]
    a[1] = b[0] + c[1] * d[1]
    a[2:N - 1] = bn[:N - 3] + c[2:N - 1] * d[2:N - 1]
    b[1:N - 1] = bn
