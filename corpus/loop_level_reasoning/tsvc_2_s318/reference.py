import numpy as np


def tsvc_2_s318(a, index, xmax, N, inc):
    """xmax[0] = max |a[i*inc]| over i < N, index[0] = the first i attaining it."""
    v = np.abs(a[::inc])
    i = np.argmax(v)
    index[0] = i
    xmax[0] = v[i]
