import numpy as np


def cholesky2(A, N):
    """Lower triangle of the SPD matrix A becomes its Cholesky factor L; the strict upper triangle is kept."""
    A[:] = np.linalg.cholesky(A) + np.triu(A, 1)
