import numpy as np


def gemm_batch_norm_scaling_softmax(bias, bn_bias, bn_weight, out, scale, weight, x, K, N, O, eps):
    """Row softmax of scale * BatchNorm(x @ weight.T + bias) (training-mode batch statistics)."""
    z = x @ weight.T + bias
    mean = z.sum(axis=0) / N
    var = ((z - mean) ** 2).sum(axis=0) / N
    y = (z - mean) / np.sqrt(var + eps) * bn_weight + bn_bias
    v = y * scale[0]
    e = np.exp(v - v.max(axis=1, keepdims=True))
    out[...] = e / e.sum(axis=1).reshape(N, 1)
