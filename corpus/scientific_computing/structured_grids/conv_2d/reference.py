import numpy as np


def conv_2d(img, out, w, N, R):
    """Zero-padded same-size correlation, accumulated one filter tap at a time."""
    K = 2 * R + 1
    pad = np.zeros((N + 2 * R, N + 2 * R), dtype=img.dtype)
    pad[R:R + N, R:R + N] = img
    acc = np.zeros((N, N), dtype=img.dtype)
    for a in range(K):
        for b in range(K):
            acc += w[a, b] * pad[a:a + N, b:b + N]
    out[...] = acc
