import numpy as np


def tsvc_2_s13110(aa, amax, xindex, yindex, N):
    """amax[0] = max of aa; xindex[0], yindex[0] = its row and column (first in row-major order)."""
    flat = aa.ravel()
    p = np.argmax(flat)
    amax[0] = flat[p]
    xindex[0] = p // N
    yindex[0] = p % N
