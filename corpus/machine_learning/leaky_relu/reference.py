import numpy as np


def leaky_relu(out, x, D, N, negative_slope):
    """Leaky ReLU: x for positive x, negative_slope * x for the rest."""
    out[:] = np.where(x > 0, x, negative_slope * x)
