import numpy as np


def gemm_group_norm_hardtanh(bias, gn_bias, gn_weight, out, weight, x, CG, G, K, N, eps, hardtanh_max, hardtanh_min):
    """GroupNorm (G groups of CG channels) of x @ weight.T + bias, then Hardtanh."""
    z = (x @ weight.T + bias).reshape(N, G, CG)
    mean = z.mean(axis=2, keepdims=True)
    var = ((z - mean) ** 2).mean(axis=2, keepdims=True)
    y = ((z - mean) / np.sqrt(var + eps)).reshape(N, G * CG) * gn_weight + gn_bias
    out[...] = np.clip(y, hardtanh_min, hardtanh_max)
