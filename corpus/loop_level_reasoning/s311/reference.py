import numpy as np


def s311(a, sum, N):
    """sum[0] = total of all elements of a."""
    sum[0] = np.sum(a)
