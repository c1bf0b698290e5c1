import numpy as np


def conv_transposed_1d_asymmetric_input_square_kernel_padded_strided_dilated(out, weight, x, C, DIL, K, L, N, O, PAD, STRIDE):
    """Transposed convolution: input position l scatters weight[:, :, k]-weighted copies to l*STRIDE + k*DIL - PAD."""
    Lf = (L - 1) * STRIDE + DIL * (K - 1) + 1  # the uncropped length
    Lo = Lf - 2 * PAD
    acc = np.zeros((N, O, Lf), dtype=x.dtype)
    for k in range(K):
        start = k * DIL
        # (O x C) @ (N x C x L) broadcasts to N x O x L
        acc[:, :, start:start + (L - 1) * STRIDE + 1:STRIDE] += weight[:, :, k].T @ x
    out[...] = acc[:, :, PAD:PAD + Lo]
