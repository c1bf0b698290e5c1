import numpy as np


def vas_ssym(a, b, ip, N, SSYM):
    """a[ip[i*SSYM]] = b[i] for i < N // SSYM (ip is a permutation)."""
    m = N // SSYM
    a[ip[0:m * SSYM:SSYM]] = b[:m]
