import numpy as np


def atax(A, x, y, M, N):
    """y = A^T (A x), written into y in place."""
    y[:] = A.T @ (A @ x)
