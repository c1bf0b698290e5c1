import numpy as np


def tsvc_2_s251(a, b, c, d, N):
    """a = (b + c*d)**2 elementwise."""
    s = b + c * d
    a[:] = s * s
