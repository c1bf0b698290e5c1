import numpy as np


def bicg(A, p, q, r, s, M, N):
    """s = A^T r and q = A p, both written in place."""
    s[:] = A.T @ r
    q[:] = A @ p
