import numpy as np


def three_d_tensor_matrix_multiplication(A, B, C, K, L, M, N):
    """C[n] = A[n] @ B for each n (A: N x M x K, B: K x L), written into C in place."""
    # the N slices stacked into one (N*M) x K matrix: a single matrix product
    C[...] = (A.reshape(N * M, K) @ B).reshape(N, M, L)
