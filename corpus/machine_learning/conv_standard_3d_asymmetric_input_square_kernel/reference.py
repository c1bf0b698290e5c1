import numpy as np


def conv_standard_3d_asymmetric_input_square_kernel(out, weight, x, C, D, DIL, H, K, N, O, W):
    """3-D convolution of x (N x C x H x W x D) with a K x K x 1 kernel, taps DIL apart, stride 1, no padding, no bias."""
    Ho, Wo = H - DIL * (K - 1), W - DIL * (K - 1)
    acc = np.zeros((N, Ho, Wo, D, O), dtype=x.dtype)  # channels last while accumulating
    for p in range(K):
        for q in range(K):
            i, j = p * DIL, q * DIL
            acc += np.tensordot(x[:, :, i:i + Ho, j:j + Wo, :], weight[:, :, p, q], axes=([1], [1]))
    out[...] = acc.transpose(0, 4, 1, 2, 3)
