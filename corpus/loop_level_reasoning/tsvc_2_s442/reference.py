import numpy as np


def tsvc_2_s442(a, b, c, d, e, indx, N):
    """a[i] += the square of b, c, d or e at i, picked by indx[i] = 1, 2, 3, 4."""
    a += np.where(indx == 2, c * c, np.where(indx == 3, d * d, np.where(indx == 4, e * e, b * b)))
