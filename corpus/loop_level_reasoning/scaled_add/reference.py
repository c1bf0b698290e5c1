import numpy as np


def scaled_add(x, y, N, alpha):
    """y += alpha * x."""
    y += alpha * x
