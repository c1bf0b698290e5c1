import numpy as np


def permute_3d(A, B, N):
    """B[k, i, j] = A[i, j, k]: the last axis of A moved to the front."""
    B[...] = np.transpose(A, (2, 0, 1))
