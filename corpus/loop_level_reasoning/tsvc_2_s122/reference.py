import numpy as np


def tsvc_2_s122(a, b, N, n1, n3):
    """The t-th element of a[n1-1::n3] gets b[N-1-t] added (b read in reverse)."""
    count = (N - n1 + n3) // n3
    a[n1 - 1::n3] += b[::-1][:count]
