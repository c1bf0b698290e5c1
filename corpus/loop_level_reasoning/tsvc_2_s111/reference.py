import numpy as np


def tsvc_2_s111(a, b, N):
    """For odd i: a[i] = a[i-1] + b[i]; even elements of a are left unchanged."""
    a[1::2] = a[0:N - 1:2] + b[1::2]
