import math

import numpy as np
from scipy.special import erf


def gemm_scaling_hardtanh_gelu(bias, out, weight, x, K, N, O, hardtanh_max, hardtanh_min, scaling_factor):
    v = np.clip((x @ weight.T + bias) * scaling_factor, hardtanh_min, hardtanh_max)
    out[...] = v * (0.5 * (1 + erf(v / math.sqrt(2))))
