import numpy as np


def cholesky(A, N):
    """Overwrite the SPD matrix A with its lower Cholesky factor L (A = L @ L.T), zero above the diagonal."""
    A[:] = np.linalg.cholesky(A)
