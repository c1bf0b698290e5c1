import numpy as np


def tsvc_2_s123(a, b, c, d, e, N):
    """For i < N/2: append b+d*e to a, and also c+d*e where c > 0; the tail of a is unchanged."""
    h = N // 2
    de = d[:h] * e[:h]
    pos_c = c[:h] > 0
    step = 1 + pos_c.astype(np.int64)
    first = np.cumsum(step) - step
    a[first] = b[:h] + de
    a[first[pos_c] + 1] = c[:h][pos_c] + de[pos_c]
