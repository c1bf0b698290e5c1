import numpy as np


def tsvc_2_s232(aa, bb, N):
    """aa[j, i] = aa[j, i-1]**2 + bb[j, i] along each row over the lower triangle 1 <= i <= j."""
    for i in range(1, N):  # column by column, over the rows j >= i
        aa[i:, i] = aa[i:, i - 1] * aa[i:, i - 1] + bb[i:, i]
