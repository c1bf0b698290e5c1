import numpy as np


def unrolled_dense(a, b, N, alpha):
    """a += alpha * b over the whole groups of 4 (the first 4*(N//4) elements)."""
    m = 4 * (N // 4)
    a[:m] += alpha * b[:m]
