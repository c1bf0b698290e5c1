import numpy as np


def reroll_saxpy7(a, b, N):
    """a += 2 * b over the whole groups of 7 (the first 7*(N//7) elements)."""
    m = 7 * (N // 7)
    a[:m] += b[:m] * 2
