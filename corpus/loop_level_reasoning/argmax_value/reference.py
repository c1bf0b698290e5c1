import numpy as np


def argmax_value(a, out, N):
    """out[0] = the largest element of a."""
    out[0] = np.max(a)
