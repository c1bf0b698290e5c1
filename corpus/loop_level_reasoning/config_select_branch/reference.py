import numpy as np


def config_select_branch(out_a, out_b, src, N, K):
    """K > 0: out_a = 2*src; otherwise out_b = src + 1. The other output is left as it was."""
    if K > 0:
        out_a[:] = src * 2
    else:
        out_b[:] = src + 1
