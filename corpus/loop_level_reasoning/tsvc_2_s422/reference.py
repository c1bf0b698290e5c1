import numpy as np


def tsvc_2_s422(a, flat_2d_array, N):
    """flat_2d_array[i+4] = flat_2d_array[i+8] + a[i] for i < N, each reading the old value."""
    old = flat_2d_array[8:N + 8].copy()  # every read sees the value before the loop
    flat_2d_array[4:N + 4] = old + a
