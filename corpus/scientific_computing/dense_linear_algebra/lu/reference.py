import numpy as np


def lu(A, N):
    """In-place LU without pivoting (unit lower L below the diagonal, U on and above it), blocked."""
    bs = 64
    for k0 in range(0, N, bs):
        k1 = min(k0 + bs, N)
        # factor the panel A[k0:, k0:k1] column by column
        for k in range(k0, k1):
            A[k + 1:, k] /= A[k, k]
            A[k + 1:, k + 1:k1] -= np.outer(A[k + 1:, k], A[k, k + 1:k1])
        if k1 < N:
            # block row of U: solve L11 @ U12 = A12, then update the trailing matrix
            L11 = np.tril(A[k0:k1, k0:k1], -1) + np.eye(k1 - k0, dtype=A.dtype)
            A[k0:k1, k1:] = np.linalg.solve(L11, A[k0:k1, k1:])
            A[k1:, k1:] -= A[k1:, k0:k1] @ A[k0:k1, k1:]
