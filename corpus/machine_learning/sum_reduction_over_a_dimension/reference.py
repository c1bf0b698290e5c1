import numpy as np


def sum_reduction_over_a_dimension(out, x, D1, D2, N):
    """Sum of x (N x D1 x D2) along axis 1, keeping it as a length-1 axis."""
    out[:] = x.sum(axis=1, keepdims=True)
