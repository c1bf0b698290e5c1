import numpy as np


def matmul_with_transposed_both(A, B, C, K, M, N):
    """C = A.T @ B.T with A stored as K x M and B as N x K, written into C (M x N) in place."""
    C[...] = A.T @ B.T
