import numpy as np


def matmul_with_transposed_b(A, B, C, K, M, N):
    """C = A @ B.T with B stored as N x K, written into C (M x N) in place."""
    C[...] = A @ B.T
