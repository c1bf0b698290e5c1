import numpy as np


def conv2d_subtract_subtract_mish(bias, out, weight, x, C, H, K, N, O, W, subtract_value_1, subtract_value_2):
    """Mish of conv2d(x, weight) + bias minus two constants."""
    Ho, Wo = H - K + 1, W - K + 1
    acc = np.zeros((O, N, Ho, Wo), dtype=x.dtype)
    for p in range(K):
        for q in range(K):
            # contract the input channels of one kernel tap: (O, C) . (N, C, Ho, Wo)
            acc += np.tensordot(weight[:, :, p, q], x[:, :, p:p + Ho, q:q + Wo], axes=([1], [1]))
    c = acc.transpose(1, 0, 2, 3) + bias[:, None, None]
    v = (c - subtract_value_1) - subtract_value_2
    out[...] = v * np.tanh(np.logaddexp(0, v))
