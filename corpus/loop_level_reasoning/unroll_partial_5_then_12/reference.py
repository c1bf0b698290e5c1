import numpy as np


def unroll_partial_5_then_12(a, b, N):
    """b = 2 * a."""
    b[:] = a * 2
