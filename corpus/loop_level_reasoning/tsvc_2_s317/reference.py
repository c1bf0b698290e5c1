import numpy as np


def tsvc_2_s317(a, q, N):
    """q[0] = product of the N/2 factors in a."""
    q[0] = np.prod(a)
