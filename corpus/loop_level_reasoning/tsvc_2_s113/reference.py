import numpy as np


def tsvc_2_s113(a, b, N):
    """a[i] = a[0] + b[i] for i = 1..N-1; a[0] is left unchanged."""
    a[1:] = a[0] + b[1:]
