import numpy as np


def ext_war_unit(a, b, N):
    """a[i] = a[i+1] + b[i] for i < N-1, every a[i+1] being the value before the loop."""
    old = a.copy()  # the reads see a as it was before the loop
    a[:N - 1] = old[1:] + b[:N - 1]
