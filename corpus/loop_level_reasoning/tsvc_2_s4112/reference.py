import numpy as np


def tsvc_2_s4112(a, b, ip, N, s):
    """a[i] += b[ip[i]] * s: a gather from b through the index array ip."""
    a += b[ip] * s
