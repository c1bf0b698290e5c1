import numpy as np


def tsvc_2_s491(a, b, c, d, ip, N):
    """a[ip[i]] = b[i] + c[i]*d[i]: a scatter through the permutation ip."""
    a[ip] = b + c * d
