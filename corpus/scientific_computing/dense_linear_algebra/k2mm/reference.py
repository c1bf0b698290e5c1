import numpy as np


def k2mm(A, B, C, D, tmp, NI, NJ, NK, NL, alpha, beta):
    """tmp = alpha * A @ B; D = tmp @ C + beta * D (both in place)."""
    tmp[:] = alpha * (A @ B)
    D[:] = tmp @ C + beta * D
