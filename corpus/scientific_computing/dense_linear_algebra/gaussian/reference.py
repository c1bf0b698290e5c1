import numpy as np


def gaussian(A, b, x, N):
    """Solve A x = b by Gaussian elimination without pivoting; A, b are reduced in place."""
    for k in range(N - 1):
        m = A[k + 1:, k] / A[k, k]
        A[k + 1:, k + 1:] -= np.outer(m, A[k, k + 1:])
        A[k + 1:, k] = m
        b[k + 1:] -= m * b[k]
    for i in range(N - 1, -1, -1):
        x[i] = (b[i] - np.sum(A[i, i + 1:] * x[i + 1:])) / A[i, i]
