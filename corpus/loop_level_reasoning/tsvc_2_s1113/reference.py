import numpy as np


def tsvc_2_s1113(a, b, N):
    """a[i] = a[N/2] + b[i] in order: i <= N/2 uses the original a[N/2], i > N/2 the updated one."""
    h = N // 2
    old = a[h]
    a[:h + 1] = old + b[:h + 1]
    new = a[h]
    a[h + 1:] = new + b[h + 1:]
