import numpy as np


def matmul_with_transposed_a(A, B, C, K, M, N):
    """C = A.T @ B with A stored as K x M, written into C (M x N) in place."""
    C[...] = A.T @ B
