import numpy as np


def s4113_ssym(a, b, c, ip, N, SSYM):
    """a[ip[i*SSYM]] = b[ip[i*SSYM]] + c[i] for i < N // SSYM (ip is a permutation)."""
    m = N // SSYM
    idx = ip[0:m * SSYM:SSYM]
    a[idx] = b[idx] + c[:m]
