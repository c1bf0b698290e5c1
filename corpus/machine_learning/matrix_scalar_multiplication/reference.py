import numpy as np


def matrix_scalar_multiplication(A, C, M, N, s):
    """C = s * A elementwise, written into C in place."""
    C[...] = A * s
