import numpy as np


def tsvc_2_s312(a, prod, N):
    """prod[0] = product of all elements of a."""
    prod[0] = np.prod(a)
