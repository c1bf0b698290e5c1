import numpy as np


def tsvc_2_s115(a, aa, N):
    """For j = 0..N-1 in order: a[j+1:] -= aa[j, j+1:] * a[j] (forward substitution)."""
    for j in range(N - 1):
        a[j + 1:] -= aa[j, j + 1:] * a[j]
