import numpy as np


def matrix_vector_multiplication(A, B, C, K, M):
    """C = A @ B with B a K x 1 column vector, written into C (M x 1) in place."""
    C[...] = A @ B
