import numpy as np


def unroll_prime_17_uniform(a, b, N):
    """b = a + 1."""
    b[:] = a + 1
