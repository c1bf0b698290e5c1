import numpy as np


def scan_multi_5carry(acc, delta, N):
    """Each row r of acc becomes acc[r, 0] followed by its running sum of delta[r, 1:]."""
    for r in range(5):
        t = delta[r].copy()
        t[0] = acc[r, 0]
        acc[r, :] = np.cumsum(t)
