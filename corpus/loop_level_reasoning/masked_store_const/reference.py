import numpy as np


def masked_store_const(a, b, mask, N):
    """a[i] = b[i] wherever mask[i] > 0; the other elements of a keep their value."""
    a[:] = np.where(mask > 0, b, a)
