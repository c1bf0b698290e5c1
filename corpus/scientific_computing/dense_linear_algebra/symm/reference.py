import numpy as np


def symm(A, B, C, M, N, alpha, beta):
    """C = alpha * S @ B + beta * C, S the symmetric matrix built from the lower triangle of A."""
    low = np.tril(A, -1)
    S = low + low.T + np.diag(np.diag(A))
    C[:] = alpha * (S @ B) + beta * C
