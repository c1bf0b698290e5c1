import numpy as np


def average_pooling_2d(out, x, C, H, K, N, STRIDE, W):
    """Mean of each K x K window of x (NCHW), windows taken every STRIDE pixels, no padding."""
    Ho = (H - K) // STRIDE + 1
    Wo = (W - K) // STRIDE + 1
    hs = STRIDE * (Ho - 1) + 1
    ws = STRIDE * (Wo - 1) + 1
    acc = np.zeros((N, C, Ho, Wo), dtype=x.dtype)
    for p in range(K):
        for q in range(K):
            acc += x[:, :, p:p + hs:STRIDE, q:q + ws:STRIDE]
    out[...] = acc / x.dtype.type(K * K)
