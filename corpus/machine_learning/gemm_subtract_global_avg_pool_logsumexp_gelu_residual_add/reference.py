import math

import numpy as np
from scipy.special import erf


def gemm_subtract_global_avg_pool_logsumexp_gelu_residual_add(bias, out, subtract, weight, x, K, N, O):
    z = x @ weight.T + bias - subtract
    a = z.mean(axis=1, keepdims=True)
    # logsumexp over one element returns it unchanged
    g = a * (0.5 * (1 + erf(a / math.sqrt(2))))
    out[...] = g + x
