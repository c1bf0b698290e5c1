import numpy as np


def tsvc_2_s353(a, b, c, ip, N):
    """a += c[0] * b[ip]: a saxpy gathering b through ip."""
    a += c[0] * b[ip]
