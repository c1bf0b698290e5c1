def standard_matrix_multiplication(A, B, C, K, M, N):
    """C = A @ B, written into C in place."""
    C[:] = A @ B
