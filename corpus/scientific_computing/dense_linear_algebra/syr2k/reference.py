import numpy as np


def syr2k(A, B, C, M, N, alpha, beta):
    """Lower triangle of C (diagonal included) = alpha * (A @ B.T + B @ A.T) + beta * C; the strict upper triangle is kept."""
    C[:] = np.tril(alpha * (A @ B.T + B @ A.T) + beta * C) + np.triu(C, 1)
