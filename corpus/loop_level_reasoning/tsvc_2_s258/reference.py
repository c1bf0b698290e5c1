import numpy as np


def tsvc_2_s258(a, aa, b, c, d, e, N):
    """s[i] = d[k]**2 for the last k <= i with a[k] > 0 (0 if none); b = s*c + d, e = (s + 1)*aa."""
    s = d * d  # s where a > 0; elsewhere it carries the previous value (0 before any)
    for i in range(N):
        if not a[i] > 0:
            s[i] = 0.0 if i == 0 else s[i - 1]
    b[:] = s * c + d
    e[:] = (s + 1) * aa
