import numpy as np


def bmm_instance_norm_sum_residual_add_multiply(bias, out, weight, x, y, K, N, O, eps):
    """(row-normalized (x @ weight.T + bias) + y) * y."""
    z = x @ weight.T + bias
    mean = z.sum(axis=1) / O
    d = z - mean.reshape(N, 1)
    var = (d * d).sum(axis=1) / O
    zn = d / np.sqrt(var + eps).reshape(N, 1)
    out[...] = (zn + y) * y
