import numpy as np


def elu(out, x, D, N, alpha):
    """ELU: identity for positive x, alpha * expm1(x) for the rest."""
    out[:] = np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))
