import numpy as np


def max_filter(img, out, H, W, r):
    """Square max filter, separable: the max over columns j-r..j+r, then over rows i-r..i+r."""
    rows = img.copy()
    for s in range(1, min(r, W - 1) + 1):
        rows[:, s:] = np.maximum(rows[:, s:], img[:, :-s])
        rows[:, :-s] = np.maximum(rows[:, :-s], img[:, s:])
    out[:, :] = rows
    for s in range(1, min(r, H - 1) + 1):
        out[s:, :] = np.maximum(out[s:, :], rows[:-s, :])
        out[:-s, :] = np.maximum(out[:-s, :], rows[s:, :])
