import math

import numpy as np
from scipy.special import erf


def matmul_add_swish_tanh_gelu_hardtanh(add_value, bias, out, weight, x, K, N, O):
    v = x @ weight.T + bias + add_value
    v = v / (1 + np.exp(-v))
    t = np.tanh(v)
    g = t * (0.5 * (1 + erf(t / math.sqrt(2))))
    out[...] = np.clip(g, -1, 1)
