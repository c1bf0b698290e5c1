import numpy as np


def tsvc_2_s2101(aa, bb, cc, N):
    """aa[i, i] += bb[i, i] * cc[i, i] for i < N; off-diagonal elements of aa are left unchanged."""
    diag = aa.reshape(N * N)[::N + 1]  # a view of the diagonal of aa
    diag += bb.reshape(N * N)[::N + 1] * cc.reshape(N * N)[::N + 1]
