import numpy as np


def tall_skinny_matrix_multiplication(A, B, C, M, N):
    """C = A @ B with A: M x N, B: N x M (N small), written into C (M x M) in place."""
    C[...] = A @ B
