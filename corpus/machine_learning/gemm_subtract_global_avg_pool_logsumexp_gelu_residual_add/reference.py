import math

import numpy as np


def gemm_subtract_global_avg_pool_logsumexp_gelu_residual_add(bias, out, subtract, weight, x, K, N, O):
    erf = np.vectorize(math.erf, otypes=[x.dtype])
    z = x @ weight.T + bias - subtract
    a = z.mean(axis=1, keepdims=True)
    # logsumexp over one element returns it unchanged
    g = a * (0.5 * (1 + erf(a / math.sqrt(2))))
    out[...] = g + x
