import math

import numpy as np
from scipy.special import erf


def gemm_max_subtract_gelu(bias, out, weight, x, K, N, O):
    m = (x @ weight.T + bias).max(axis=0, keepdims=True)
    v = m - m.mean(axis=1, keepdims=True)
    out[...] = v * (0.5 * (1 + erf(v / math.sqrt(2))))
