import numpy as np


def tsvc_2_s3110(aa, max, xindex, yindex, N):
    """max[0] = largest element of aa; xindex[0], yindex[0] = its row and column (first occurrence in row-major order)."""
    k = np.argmax(aa)
    i = k // N
    j = k % N
    max[0] = aa[i, j]
    xindex[0] = i
    yindex[0] = j
