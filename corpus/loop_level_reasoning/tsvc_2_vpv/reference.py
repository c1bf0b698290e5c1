import numpy as np


def tsvc_2_vpv(a, b, N):
    """a += b."""
    a += b
