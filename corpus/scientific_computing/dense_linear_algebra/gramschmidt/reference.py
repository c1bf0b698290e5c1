import numpy as np


def gramschmidt(A, Q, R, M, N):
    """Modified Gram-Schmidt QR: Q orthonormal columns, R upper triangular, A left as the residuals."""
    R[:] = 0
    for k in range(N):
        R[k, k] = np.sqrt(A[:, k] @ A[:, k])
        Q[:, k] = A[:, k] / R[k, k]
        R[k, k + 1:] = Q[:, k] @ A[:, k + 1:]
        A[:, k + 1:] -= np.outer(Q[:, k], R[k, k + 1:])
