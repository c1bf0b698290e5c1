import numpy as np


def masked_store_sym(a, b, threshold_data, K, N):
    """a[i] = b[i] wherever threshold_data[i] > K; the other elements keep their value."""
    a[:] = np.where(threshold_data > K, b, a)
