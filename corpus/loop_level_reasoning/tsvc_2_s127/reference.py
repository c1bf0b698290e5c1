import numpy as np


def tsvc_2_s127(a, b, c, d, e, N):
    """a[2i] = b[i] + c[i]*d[i] and a[2i+1] = b[i] + d[i]*e[i] for i < N/2."""
    h = N // 2
    a[0::2] = b[:h] + c[:h] * d[:h]
    a[1::2] = b[:h] + d[:h] * e[:h]
