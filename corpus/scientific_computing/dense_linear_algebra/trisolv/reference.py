import numpy as np


def trisolv(L, b, x, N):
    """Forward substitution: x solves tril(L) @ x = b, one row at a time."""
    for i in range(N):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
