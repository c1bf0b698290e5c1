import numpy as np


def unroll_reduction_11_accs(a, out, N):
    """out[0] = sum of a (the 11 accumulators are one reassociation of it)."""
    out[0] = np.sum(a)
