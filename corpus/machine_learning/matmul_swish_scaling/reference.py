import numpy as np


def matmul_swish_scaling(bias, out, weight, x, K, N, O, scaling_factor):
    """Swish of x @ weight.T + bias, scaled."""
    z = x @ weight.T + bias
    out[...] = z / (1 + np.exp(-z)) * scaling_factor
