import numpy as np


def max_pooling_3d(out, x, C, D1, D2, D3, DIL, K, N, PAD, STRIDE):
    """Maximum of each dilated K x K x K window of x padded with -inf by PAD, every STRIDE voxels."""
    O1, O2, O3 = ((d + 2 * PAD - DIL * (K - 1) - 1) // STRIDE + 1 for d in (D1, D2, D3))
    pad = (PAD, PAD)
    xp = np.pad(x, ((0, 0), (0, 0), pad, pad, pad), constant_values=-np.inf)
    s1, s2, s3 = (STRIDE * (o - 1) + 1 for o in (O1, O2, O3))
    out[...] = -np.inf
    for a in range(K):
        for b in range(K):
            for c in range(K):
                i, j, k = a * DIL, b * DIL, c * DIL
                np.maximum(out, xp[:, :, i:i + s1:STRIDE, j:j + s2:STRIDE, k:k + s3:STRIDE], out=out)
