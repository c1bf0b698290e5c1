import numpy as np


def tsvc_2_vsumr(a, sum, N):
    """sum[0] = total of all elements of a."""
    sum[0] = np.sum(a)
