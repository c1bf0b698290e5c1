import numpy as np


def unroll_body_plus_remainder(a, b, N):
    """b = a * a (one map, whatever the unrolling)."""
    b[:] = a * a
