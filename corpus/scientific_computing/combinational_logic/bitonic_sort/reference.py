import numpy as np


def bitonic_sort(x, N):
    """Sort x ascending in place (what the bitonic network computes for N a power of two)."""
    x[:] = np.sort(x)
