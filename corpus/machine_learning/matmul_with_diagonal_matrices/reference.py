import numpy as np


def matmul_with_diagonal_matrices(A, B, C, M, N):
    """C = diag(A) @ B: row i of B scaled by A[i], written into C in place."""
    C[...] = A.reshape(N, 1) * B
