import numpy as np


def batched_matrix_multiplication(A, B, C, BATCH, K, M, N):
    """C[b] = A[b] @ B[b] for every batch index b, written into C in place."""
    for b in range(BATCH):
        C[b] = A[b] @ B[b]
