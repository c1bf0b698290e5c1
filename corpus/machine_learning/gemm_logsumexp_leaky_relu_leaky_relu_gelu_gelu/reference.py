import math

import numpy as np
from scipy.special import erf


def gemm_logsumexp_leaky_relu_leaky_relu_gelu_gelu(bias, out, weight, x, K, N, O, negative_slope):
    z = x @ weight.T + bias
    m = z.max(axis=1, keepdims=True)
    v = m + np.log(np.exp(z - m).sum(axis=1).reshape(N, 1))
    for _ in range(2):
        v = np.where(v > 0, v, v * negative_slope)
    for _ in range(2):
        v = v * (0.5 * (1 + erf(v / math.sqrt(2))))
    out[...] = v
