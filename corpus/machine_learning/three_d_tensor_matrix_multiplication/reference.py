import numpy as np


def three_d_tensor_matrix_multiplication(A, B, C, K, L, M, N):
    """C[n] = A[n] @ B for each n (A: N x M x K, B: K x L), written into C in place."""
    C[...] = A @ B
