import numpy as np


def tsvc_2_vtvtv(a, b, c, N):
    """a = (a * b) * c."""
    a[:] = a * b * c
