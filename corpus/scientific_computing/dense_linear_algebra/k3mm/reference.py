import numpy as np


def k3mm(A, B, C, D, G, NI, NJ, NK, NL, NM):
    """G = (A @ B) @ (C @ D); the intermediates E = A @ B and F = C @ D are local."""
    E = A @ B
    F = C @ D
    G[:] = E @ F
