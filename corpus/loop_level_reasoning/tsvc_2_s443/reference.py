import numpy as np


def tsvc_2_s443(a, b, c, d, N):
    """a += b*c where d <= 0, a += b*b elsewhere."""
    a += np.where(d <= 0, b * c, b * b)
