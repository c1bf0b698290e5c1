import numpy as np


def unrolled_indirect(a, b, ip, N, alpha):
    """a += alpha * b[ip] over the whole groups of 4 (the first 4*(N//4) elements)."""
    m = 4 * (N // 4)
    a[:m] += alpha * b[ip[:m]]
