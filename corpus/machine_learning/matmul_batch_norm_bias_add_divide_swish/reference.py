import numpy as np


def matmul_batch_norm_bias_add_divide_swish(add_bias, bias, bn_bias, bn_weight, out, weight, x, K, N, O, divide_value, eps):
    """Training-mode BatchNorm of x @ weight.T + bias, plus add_bias, divided, swish."""
    z = x @ weight.T + bias
    mean = z.sum(axis=0) / N
    var = ((z - mean) ** 2).sum(axis=0) / N
    y = (z - mean) / np.sqrt(var + eps) * bn_weight + bn_bias
    v = (y + add_bias[0]) / divide_value
    out[...] = v / (1 + np.exp(-v))
