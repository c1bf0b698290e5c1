import numpy as np


def tsvc_2_s293(a, N):
    """Every element of a becomes the original a[0]."""
    a[:] = a[0]
