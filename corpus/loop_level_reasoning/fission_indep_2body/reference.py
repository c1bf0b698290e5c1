import numpy as np


def fission_indep_2body(a, b, x, y, z, N):
    """a = x*y + z, b = x - y*z."""
    a[:] = x * y + z
    b[:] = x - y * z
