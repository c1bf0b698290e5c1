import numpy as np


def tsvc_2_s273(a, b, c, d, e, N):
    """a += d*e; then b[i] += d[i]*e[i] where the new a[i] < 0; then c += a*d with the new a."""
    a += d * e
    neg = a < 0
    b[neg] += d[neg] * e[neg]
    c += a * d
