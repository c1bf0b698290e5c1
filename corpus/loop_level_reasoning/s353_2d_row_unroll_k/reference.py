import numpy as np


def s353_2d_row_unroll_k(a, b, ip, N):
    """b[i, j] = a[i, ip[j]] + 1 for every row i."""
    for i in range(N):
        row = a[i]
        b[i, :] = row[ip] + 1
