import numpy as np


def tsvc_2_s4115(a, b, ip, sum, N):
    """sum[0] = sum of a[i] * b[ip[i]]."""
    sum[0] = np.sum(a * b[ip])
