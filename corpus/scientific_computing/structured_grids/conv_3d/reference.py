import numpy as np


def conv_3d(out, vol, w, N, R):
    """Zero-padded same-size 3-D correlation, accumulated one filter tap at a time."""
    K = 2 * R + 1
    pad = np.zeros((N + 2 * R, N + 2 * R, N + 2 * R), dtype=vol.dtype)
    pad[R:R + N, R:R + N, R:R + N] = vol
    acc = np.zeros((N, N, N), dtype=vol.dtype)
    for a in range(K):
        for b in range(K):
            for c in range(K):
                acc += w[a, b, c] * pad[a:a + N, b:b + N, c:c + N]
    out[...] = acc
