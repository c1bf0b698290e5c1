import numpy as np


def ecrad_clamped_reduction(d, out, x, y, N):
    """out = clip(exp(-sqrt(max(x^2 + y^2, 1e-12)) * d), 0, 1), elementwise."""
    k = np.sqrt(np.maximum(x * x + y * y, 1e-12))
    e = np.exp(-k * d)
    out[:] = np.maximum(np.minimum(e, 1.0), 0.0)
