import numpy as np


def tsvc_2_vpvtv(a, b, c, N):
    """a += b * c."""
    a += b * c
