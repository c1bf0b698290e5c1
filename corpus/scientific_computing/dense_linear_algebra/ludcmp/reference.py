import numpy as np


def ludcmp(A, b, x, y, N):
    """LU-factor A in place without pivoting (blocked), then L y = b (unit L) and U x = y."""
    bs = 64
    for k0 in range(0, N, bs):
        k1 = min(k0 + bs, N)
        for k in range(k0, k1):
            A[k + 1:, k] /= A[k, k]
            A[k + 1:, k + 1:k1] -= np.outer(A[k + 1:, k], A[k, k + 1:k1])
        if k1 < N:
            L11 = np.tril(A[k0:k1, k0:k1], -1) + np.eye(k1 - k0, dtype=A.dtype)
            A[k0:k1, k1:] = np.linalg.solve(L11, A[k0:k1, k1:])
            A[k1:, k1:] -= A[k1:, k0:k1] @ A[k0:k1, k1:]
    for i in range(N):
        y[i] = b[i] - A[i, :i] @ y[:i]
    for i in range(N - 1, -1, -1):
        x[i] = (y[i] - A[i, i + 1:] @ x[i + 1:]) / A[i, i]
