import numpy as np


def tsvc_2_vdotr(a, b, dot, N):
    """dot[0] = sum over i of a[i]*b[i]."""
    dot[0] = np.sum(a * b)
