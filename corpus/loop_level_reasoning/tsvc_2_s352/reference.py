import numpy as np


def tsvc_2_s352(a, b, dot, N):
    """dot[0] = sum of a[i] * b[i]."""
    dot[0] = np.sum(a * b)
