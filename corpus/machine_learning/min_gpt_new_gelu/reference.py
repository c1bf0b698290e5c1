import math

import numpy as np

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


def min_gpt_new_gelu(out, x, D, N):
    """GELU, tanh approximation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    inner = SQRT_2_OVER_PI * (x + 0.044715 * (x * x * x))
    out[:] = 0.5 * x * (1 + np.tanh(inner))
