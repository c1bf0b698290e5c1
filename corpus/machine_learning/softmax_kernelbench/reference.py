import numpy as np


def softmax_kernelbench(out, x, D, N):
    """Softmax of each row of x (N x D), shifted by the row maximum for stability."""
    e = np.exp(x - x.max(axis=1, keepdims=True))
    out[:] = e / e.sum(axis=1, keepdims=True)
