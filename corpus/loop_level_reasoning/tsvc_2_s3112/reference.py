import numpy as np


def tsvc_2_s3112(a, b, N):
    """b = running (inclusive prefix) sum of a."""
    b[:] = np.cumsum(a)
