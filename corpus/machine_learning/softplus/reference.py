import numpy as np


def softplus(out, x, D, N):
    """Softplus log(1 + exp(x)) in the overflow-free form max(x, 0) + log1p(exp(-|x|))."""
    out[:] = np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))
