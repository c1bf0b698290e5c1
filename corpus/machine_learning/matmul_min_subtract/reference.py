import numpy as np


def matmul_min_subtract(bias, out, weight, x, K, N, O, constant):
    """min(x @ weight.T + bias, constant) - constant."""
    out[...] = np.minimum(x @ weight.T + bias, constant) - constant
