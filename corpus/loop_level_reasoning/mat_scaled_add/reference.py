import numpy as np


def mat_scaled_add(A, B, M, N, alpha):
    """B += alpha * A over the whole M x N matrix."""
    B += alpha * A
