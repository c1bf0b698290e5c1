import numpy as np


def tsvc_2_s221(a, b, c, d, N):
    """a[i] += c[i]*d[i] for i >= 1, then b[i] = b[i-1] + a[i] + d[i] as a running sum from b[0]."""
    a[1:] += c[1:] * d[1:]
    b[1:] = a[1:] + d[1:]
    b[:] = np.cumsum(b)  # running sum starting from the old b[0]
