import numpy as np


def average_pooling_3d(out, x, C, D, H, K, N, PAD, STRIDE, W):
    """Mean of each K x K x K window of the zero-padded x (divided by K**3, pads included)."""
    Do = (D + 2 * PAD - K) // STRIDE + 1
    Ho = (H + 2 * PAD - K) // STRIDE + 1
    Wo = (W + 2 * PAD - K) // STRIDE + 1
    xp = np.pad(x, ((0, 0), (0, 0), (PAD, PAD), (PAD, PAD), (PAD, PAD)))
    ds, hs, ws = (STRIDE * (n - 1) + 1 for n in (Do, Ho, Wo))
    acc = np.zeros((N, C, Do, Ho, Wo), dtype=x.dtype)
    for a in range(K):
        for b in range(K):
            for c in range(K):
                acc += xp[:, :, a:a + ds:STRIDE, b:b + hs:STRIDE, c:c + ws:STRIDE]
    out[...] = acc / x.dtype.type(K * K * K)
