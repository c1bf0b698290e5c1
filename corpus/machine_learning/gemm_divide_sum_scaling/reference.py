import numpy as np


def gemm_divide_sum_scaling(out, weight, x, K, N, O, scaling_factor):
    """Row sums of (x @ weight.T) / 2, scaled: an N x 1 column."""
    z = (x @ weight.T) / 2
    out[...] = z.sum(axis=1).reshape(N, 1) * scaling_factor
