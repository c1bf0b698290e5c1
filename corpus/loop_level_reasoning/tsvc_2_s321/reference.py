import numpy as np


def tsvc_2_s321(a, b, N):
    """a[i] += a[i-1] * b[i] for i = 1..N-1, in order (each step uses the updated a[i-1])."""
    for i in range(1, N):
        a[i] += a[i - 1] * b[i]
