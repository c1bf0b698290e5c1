import numpy as np


def gemm_group_norm_hardtanh(bias, gn_bias, gn_weight, out, weight, x, CG, G, K, N, eps, hardtanh_max, hardtanh_min):
    """GroupNorm (G groups of CG channels) of x @ weight.T + bias, then Hardtanh."""
    z = (x @ weight.T + bias).reshape(N, G, CG)
    mean = z.sum(axis=2).reshape(N, G, 1) / CG
    var = ((z - mean) ** 2).sum(axis=2).reshape(N, G, 1) / CG
    y = ((z - mean) / np.sqrt(var + eps)).reshape(N, G * CG) * gn_weight + gn_bias
    out[...] = np.clip(y, hardtanh_min, hardtanh_max)
