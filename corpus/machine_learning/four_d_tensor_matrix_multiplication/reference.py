import numpy as np


def four_d_tensor_matrix_multiplication(A, B, C, NB, NI, NJ, NK, NL):
    """C[b, i, j, :] = A[b, i, j, :] @ B: the last axis of A contracted with B's rows."""
    # the leading axes flattened into one (NB*NI*NJ) x NL matrix: a single matrix product
    C[...] = (A.reshape(NB * NI * NJ, NL) @ B).reshape(NB, NI, NJ, NK)
