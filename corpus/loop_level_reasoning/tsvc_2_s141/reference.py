import numpy as np


def tsvc_2_s141(bb, flat_2d_array, N):
    """flat_2d_array[j*(j+1)/2 + i] += bb[j, i] for every 0 <= i <= j < N."""
    for j in range(N):
        k0 = j * (j + 1) // 2
        flat_2d_array[k0:k0 + j + 1] += bb[j, :j + 1]
