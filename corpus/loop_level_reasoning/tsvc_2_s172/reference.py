import numpy as np


def tsvc_2_s172(a, b, N, n1, n3):
    """a[i] += b[i] for i = n1-1, n1-1+n3, ... below N."""
    a[n1 - 1:N:n3] += b[n1 - 1:N:n3]
