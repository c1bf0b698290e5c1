import numpy as np


def conv_transposed_2d_asymmetric_input_square_kernel_dilated_padded_strided(out, weight, x, C, DIL, H, K, N, O, PAD, STRIDE, W):
    """Transposed convolution: pixel (h, w) scatters weight[:, :, p, q]-weighted copies to (h*STRIDE + p*DIL - PAD, w*STRIDE + q*DIL - PAD)."""
    Hf = (H - 1) * STRIDE + DIL * (K - 1) + 1  # the uncropped extents
    Wf = (W - 1) * STRIDE + DIL * (K - 1) + 1
    Ho, Wo = Hf - 2 * PAD, Wf - 2 * PAD
    xl = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).reshape(N * H * W, C)  # channels last, one row per pixel
    acc = np.zeros((N, Hf, Wf, O), dtype=x.dtype)  # channels last while accumulating
    for p in range(K):
        for q in range(K):
            i, j = p * DIL, q * DIL
            contrib = (xl @ weight[:, :, p, q]).reshape(N, H, W, O)
            acc[:, i:i + (H - 1) * STRIDE + 1:STRIDE, j:j + (W - 1) * STRIDE + 1:STRIDE, :] += contrib
    out[...] = acc[:, PAD:PAD + Ho, PAD:PAD + Wo, :].transpose(0, 3, 1, 2)
