import numpy as np


def mvt(A, x1, x2, y1, y2, N):
    """x1 += A @ y1 and x2 += A.T @ y2, in place."""
    x1 += A @ y1
    x2 += A.T @ y2
