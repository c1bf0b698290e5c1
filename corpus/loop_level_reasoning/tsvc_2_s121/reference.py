import numpy as np


def tsvc_2_s121(a, b, N):
    """a[i] = a[i+1] + b[i] for i < N-1 with the original a[i+1]; a[N-1] is unchanged."""
    nxt = a[1:].copy()
    a[:N - 1] = nxt + b[:N - 1]
