import numpy as np


def syrk(A, C, M, N, alpha, beta):
    """Lower triangle of C (diagonal included) = alpha * A @ A.T + beta * C; the strict upper triangle is kept."""
    C[:] = np.tril(alpha * (A @ A.T) + beta * C) + np.triu(C, 1)
