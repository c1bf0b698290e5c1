import numpy as np


def matmul_swish_sum_group_norm(add_bias, bias, gn_bias, gn_weight, out, weight, x, CG, G, K, N, eps):
    """Swish of x @ weight.T + bias, plus add_bias, then GroupNorm."""
    z = x @ weight.T + bias
    z = z / (1 + np.exp(-z)) + add_bias
    z = z.reshape(N, G, CG)
    mean = z.sum(axis=2).reshape(N, G, 1) / CG
    var = ((z - mean) ** 2).sum(axis=2).reshape(N, G, 1) / CG
    y = ((z - mean) / np.sqrt(var + eps)).reshape(N, G * CG) * gn_weight + gn_bias
    out[...] = y
