import numpy as np


def tsvc_2_s4113(a, b, c, ip, N):
    """a[ip[i]] = b[ip[i]] + c[i] for every i (ip is a permutation)."""
    a[ip] = b[ip] + c
