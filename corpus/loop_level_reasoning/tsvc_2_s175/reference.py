import numpy as np


def tsvc_2_s175(a, b, N, inc):
    """a[i] = a[i+inc] + b[i] for i = 0, inc, 2*inc, ... below N-inc, reading the old a[i+inc]."""
    old = a[inc:N:inc].copy()  # the loop reads a[i+inc] before it is overwritten
    a[0:N - inc:inc] = old + b[0:N - inc:inc]
