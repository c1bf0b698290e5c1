import numpy as np


def tsvc_2_vas(a, b, ip, N):
    """a[ip[i]] = b[i]: a scatter through the permutation ip."""
    a[ip] = b
