import numpy as np


def max_filter(img, out, H, W, r):
    """Square max filter, separable: the max over columns j-r..j+r, then over rows i-r..i+r."""
    rows = img.copy()
    for s in range(1, min(r, W - 1) + 1):
        np.maximum(rows[:, s:], img[:, :-s], out=rows[:, s:])
        np.maximum(rows[:, :-s], img[:, s:], out=rows[:, :-s])
    out[...] = rows
    for s in range(1, min(r, H - 1) + 1):
        np.maximum(out[s:, :], rows[:-s, :], out=out[s:, :])
        np.maximum(out[:-s, :], rows[s:, :], out=out[:-s, :])
