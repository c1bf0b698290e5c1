import numpy as np


def tanh(out, x, D, N):
    """Hyperbolic tangent, elementwise."""
    out[:] = np.tanh(x)
