import numpy as np


def gemm_group_norm_swish_multiply_swish(bias, gn_bias, gn_weight, multiply_weight, out, weight, x, CG, G, K, N, eps):
    """GroupNorm of x @ weight.T + bias, swish, times multiply_weight, swish."""
    z = x @ weight.T + bias
    z = z.reshape(N, G, CG)
    mean = z.mean(axis=2, keepdims=True)
    var = ((z - mean) ** 2).mean(axis=2, keepdims=True)
    y = ((z - mean) / np.sqrt(var + eps)).reshape(N, G * CG) * gn_weight + gn_bias
    with np.errstate(over="ignore"):
        v = y / (1 + np.exp(-y)) * multiply_weight
        out[...] = v / (1 + np.exp(-v))
