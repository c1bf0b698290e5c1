import numpy as np


def tsvc_2_s4121(a, b, c, N):
    """a += b * c (the product computed by a helper function in the C loop)."""
    a += b * c
