import numpy as np


def gemver(A, u1, u2, v1, v2, w, x, y, z, N, alpha, beta):
    """Rank-2 update of A, then x += beta * A.T @ y + z, then w += alpha * A @ x (all in place)."""
    A += np.outer(u1, v1) + np.outer(u2, v2)
    x += beta * (A.T @ y) + z
    w += alpha * (A @ x)
