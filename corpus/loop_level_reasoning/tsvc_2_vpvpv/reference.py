import numpy as np


def tsvc_2_vpvpv(a, b, c, N):
    """a += b + c (b + c first)."""
    a += b + c
