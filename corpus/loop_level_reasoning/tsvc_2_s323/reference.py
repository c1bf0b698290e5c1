import numpy as np


def tsvc_2_s323(a, b, c, d, e, N):
    """For i = 1..N-1 in order: a[i] = b[i-1] + c[i]*d[i]; b[i] = a[i] + c[i]*e[i]."""
    for i in range(1, N):
        a[i] = b[i - 1] + c[i] * d[i]
        b[i] = a[i] + c[i] * e[i]
