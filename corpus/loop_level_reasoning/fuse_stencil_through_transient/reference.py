import numpy as np


def fuse_stencil_through_transient(a, out, N):
    """tmp = 3-point sum of a; out[i] = tmp[i] * tmp[i+1] on the interior i = 1..N-3."""
    tmp = np.zeros_like(a)
    tmp[1:N - 1] = a[0:N - 2] + a[1:N - 1] + a[2:N]
    out[1:N - 2] = tmp[1:N - 2] * tmp[2:N - 1]
