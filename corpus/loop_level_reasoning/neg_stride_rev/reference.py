import numpy as np


def neg_stride_rev(a, b, N):
    """a = b + 1 (the loop runs backwards, but no iteration reads another's result)."""
    a[:] = b + 1
