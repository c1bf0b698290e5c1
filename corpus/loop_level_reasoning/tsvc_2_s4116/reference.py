import numpy as np


def tsvc_2_s4116(a, aa, ip, sum, N, inc, j):
    """sum[0] = sum over i < N-1 of a[inc + i] * aa[j-1, ip[i]]."""
    sum[0] = np.sum(a[inc:inc + N - 1] * aa[j - 1][ip])
