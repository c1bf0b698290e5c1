import numpy as np


def ext_floordiv_offset_m(a, b, M, N):
    """a[i] = a[i + N//M] + b[i] for i < N//M."""
    c = N // M
    a[:c] = a[c:2 * c] + b[:c]
