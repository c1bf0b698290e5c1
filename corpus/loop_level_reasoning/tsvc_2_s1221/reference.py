import numpy as np


def tsvc_2_s1221(a, b, N):
    """b[i] = b[i-4] + a[i] for i >= 4: four interleaved running sums (stride 4)."""
    for r in range(4):
        t = a[r::4].copy()
        t[0] = b[r]
        b[r::4] = np.cumsum(t)
