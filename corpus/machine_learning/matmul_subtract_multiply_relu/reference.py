import numpy as np


def matmul_subtract_multiply_relu(bias, out, weight, x, K, N, O, multiply_value, subtract_value):
    """relu((x @ weight.T + bias - subtract_value) * multiply_value)."""
    out[...] = np.maximum((x @ weight.T + bias - subtract_value) * multiply_value, 0)
