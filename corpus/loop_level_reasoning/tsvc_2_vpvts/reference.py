import numpy as np


def tsvc_2_vpvts(a, b, N, s):
    """a += b * s."""
    a += b * s
