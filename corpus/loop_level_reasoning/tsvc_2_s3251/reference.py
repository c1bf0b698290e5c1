import numpy as np


def tsvc_2_s3251(a, b, c, d, e, N):
    """For i < N-1: a[i+1] = b[i] + c[i]; b[i] = c[i]*e[i]; d[i] = a[i]*e[i] with a[i] as just updated."""
    a[1:] = b[:N - 1] + c[:N - 1]  # uses b before it is overwritten
    d[:N - 1] = a[:N - 1] * e[:N - 1]  # uses the new a (a[0] unchanged)
    b[:N - 1] = c[:N - 1] * e[:N - 1]
