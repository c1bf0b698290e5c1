import numpy as np


def scan_conditional(delta, mask, out, N):
    """out[i] = out[i-1] + (delta[i] where mask[i] > 0, else nothing) for i = 1..N-1."""
    t = delta * (mask > 0)  # the unmasked steps add exactly zero
    t[0] = out[0]
    out[:] = np.cumsum(t)
