import numpy as np


def ext_floordiv_offset(a, b, N):
    """a[i] = a[i + N//2] + b[i] for i < N//2 (reads only the untouched upper half)."""
    h = N // 2
    a[:h] = a[h:2 * h] + b[:h]
