import numpy as np


def tsvc_2_s351(a, b, c, N):
    """a += c[0] * b."""
    a += c[0] * b
