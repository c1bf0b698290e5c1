import numpy as np


def k2mm(A, B, C, D, NI, NJ, NK, NL, alpha, beta):
    """tmp = alpha * A @ B (local); D = tmp @ C + beta * D in place."""
    tmp = alpha * (A @ B)
    D[:] = tmp @ C + beta * D
