import numpy as np


def unrolled_unit_step2(a, b, M):
    """a = 2 * b."""
    a[:] = b * 2
