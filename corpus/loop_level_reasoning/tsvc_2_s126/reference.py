import numpy as np


def tsvc_2_s126(bb, cc, flat_2d_array, N):
    """bb[j, i] = bb[j-1, i] + flat_2d_array[i*N + j-1] * cc[j, i] down each column, j = 1..N-1."""
    for j in range(1, N):
        bb[j] = bb[j - 1] + flat_2d_array[j - 1::N] * cc[j]
