import numpy as np


def matmul_for_lower_triangular_matrices(A, B, C, M):
    """C = tril(tril(A) @ tril(B)): product of the lower triangles, zero above the diagonal."""
    C[...] = np.tril(np.tril(A) @ np.tril(B))
