import numpy as np


def matmul_for_upper_triangular_matrices(A, B, C, N):
    """C = triu(triu(A) @ triu(B)): product of the upper triangles, zero below the diagonal."""
    C[...] = np.triu(np.triu(A) @ np.triu(B))
