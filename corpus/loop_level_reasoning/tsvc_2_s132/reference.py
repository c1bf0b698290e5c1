import numpy as np


def tsvc_2_s132(aa, b, c, N):
    """aa[0, i] = aa[1, i-1] + b[i]*c[1] for i = 1..N-1; aa[0, 0] and row 1 are left unchanged."""
    aa[0, 1:] = aa[1, :N - 1] + b[1:] * c[1]
