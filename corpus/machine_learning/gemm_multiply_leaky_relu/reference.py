import numpy as np


def gemm_multiply_leaky_relu(bias, out, weight, x, K, N, O, multiplier, negative_slope):
    """LeakyReLU(multiplier * (x @ weight.T + bias)) with slope negative_slope below zero."""
    v = (x @ weight.T + bias) * multiplier
    out[...] = np.where(v > 0, v, v * negative_slope)
