import numpy as np


def tsvc_2_s1421(a, b, N):
    """b[i] = b[i + N/2] + a[i] for i < N/2 (the first half of b from its second half)."""
    h = N // 2
    b[:h] = b[h:2 * h] + a[:h]
