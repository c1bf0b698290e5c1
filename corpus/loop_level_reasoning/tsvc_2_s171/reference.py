import numpy as np


def tsvc_2_s171(a, b, N, inc):
    """a[i*inc] += b[i] for i < N."""
    a[0:N * inc:inc] += b
