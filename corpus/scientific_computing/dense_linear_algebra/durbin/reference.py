import numpy as np


def durbin(r, y, N):
    """Levinson-Durbin: y solves T y = -r, T Toeplitz with unit diagonal and off-diagonals r."""
    one = r.dtype.type(1)
    y[0] = -r[0]
    beta = one
    alpha = -r[0]
    for k in range(1, N):
        beta = (one - alpha * alpha) * beta
        s = r[k - 1::-1] @ y[:k]
        alpha = -(r[k] + s) / beta
        rev = y[k - 1::-1].copy()
        y[:k] += alpha * rev
        y[k] = alpha
