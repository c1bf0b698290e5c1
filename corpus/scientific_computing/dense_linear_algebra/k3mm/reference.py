import numpy as np


def k3mm(A, B, C, D, E, F, G, NI, NJ, NK, NL, NM):
    """E = A @ B; F = C @ D; G = E @ F (all written in place)."""
    E[:] = A @ B
    F[:] = C @ D
    G[:] = E @ F
