import numpy as np


def gemm_group_norm_swish_multiply_swish(bias, gn_bias, gn_weight, multiply_weight, out, weight, x, CG, G, K, N, eps):
    """GroupNorm of x @ weight.T + bias, swish, times multiply_weight, swish."""
    z = x @ weight.T + bias
    z = z.reshape(N, G, CG)
    mean = z.sum(axis=2).reshape(N, G, 1) / CG
    var = ((z - mean) ** 2).sum(axis=2).reshape(N, G, 1) / CG
    y = ((z - mean) / np.sqrt(var + eps)).reshape(N, G * CG) * gn_weight + gn_bias
    v = y / (1 + np.exp(-y)) * multiply_weight
    out[...] = v / (1 + np.exp(-v))
