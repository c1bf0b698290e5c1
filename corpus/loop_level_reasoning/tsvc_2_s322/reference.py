import numpy as np


def tsvc_2_s322(a, b, c, N):
    """a[i] = a[i] + a[i-1] * b[i] + a[i-2] * c[i] for i = 2..N-1, in order (using the updated a[i-1], a[i-2])."""
    for i in range(2, N):
        a[i] = a[i] + a[i - 1] * b[i] + a[i - 2] * c[i]
