import numpy as np


def tsvc_2_vag(a, b, ip, N):
    """a[i] = b[ip[i]]: a gather from b."""
    a[:] = b[ip]
