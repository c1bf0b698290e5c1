import numpy as np


def tsvc_2_s341(a, b, N):
    """Copy the positive elements of b, in order, to a[0:count]; the rest of a is unchanged."""
    packed = b[b > 0]
    a[:packed.size] = packed
