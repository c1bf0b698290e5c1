import numpy as np


def gemm(A, B, C, NI, NJ, NK, alpha, beta):
    """C = alpha * A @ B + beta * C, written into C in place."""
    C[:] = alpha * (A @ B) + beta * C
