import numpy as np


def tsvc_2_vif(a, b, N):
    """a[i] = b[i] wherever b[i] > 0; other elements of a are left unchanged."""
    a[:] = np.where(b > 0, b, a)
