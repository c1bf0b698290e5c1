import numpy as np


def tsvc_2_s2102(a, aa, N):
    """aa = the N x N diagonal matrix with a on its diagonal."""
    aa[:] = 0.0
    aa.reshape(N * N)[::N + 1] = a
