import numpy as np


def tsvc_2_s441(a, b, c, d, N):
    """a += b*c where d < 0, b*b where d == 0, c*c where d > 0."""
    a += np.where(d < 0, b * c, np.where(d == 0, b * b, c * c))
