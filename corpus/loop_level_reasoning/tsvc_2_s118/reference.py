import numpy as np


def tsvc_2_s118(a, bb, N):
    """For i = 1..N-1 in order: a[i] += sum_j bb[j, i] * a[i-j-1] over j < i (updated a)."""
    for i in range(1, N):
        a[i] += np.sum(bb[:i, i] * a[i - 1::-1])
