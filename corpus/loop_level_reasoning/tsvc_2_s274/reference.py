import numpy as np


def tsvc_2_s274(a, b, c, d, e, N):
    """t = c + e*d; where t > 0: a = t and b = t + b; elsewhere a = d*e and b is unchanged."""
    t = c + e * d
    pos = t > 0
    b[pos] = t[pos] + b[pos]
    a[:] = np.where(pos, t, d * e)
