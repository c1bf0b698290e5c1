import numpy as np


def conv_transposed_3d_square_input_square_kernel_padded_dilated_strided(out, weight, x, C, D, DIL, H, K, N, O, PAD, STRIDE, W):
    """Transposed convolution: voxel (d, h, w) scatters to (d*STRIDE + a*DIL - PAD, h*STRIDE + b*DIL - PAD, w*STRIDE + e*DIL - PAD)."""
    span = DIL * (K - 1) + 1
    Df, Hf, Wf = (D - 1) * STRIDE + span, (H - 1) * STRIDE + span, (W - 1) * STRIDE + span  # the uncropped extents
    Do, Ho, Wo = Df - 2 * PAD, Hf - 2 * PAD, Wf - 2 * PAD
    xl = np.ascontiguousarray(x.transpose(0, 2, 3, 4, 1)).reshape(N * D * H * W, C)  # channels last, one row per voxel
    acc = np.zeros((N, Df, Hf, Wf, O), dtype=x.dtype)  # channels last while accumulating
    for a in range(K):
        for b in range(K):
            for e in range(K):
                i, j, k = a * DIL, b * DIL, e * DIL
                contrib = (xl @ weight[:, :, a, b, e]).reshape(N, D, H, W, O)
                acc[:, i:i + (D - 1) * STRIDE + 1:STRIDE, j:j + (H - 1) * STRIDE + 1:STRIDE,
                    k:k + (W - 1) * STRIDE + 1:STRIDE, :] += contrib
    out[...] = acc[:, PAD:PAD + Do, PAD:PAD + Ho, PAD:PAD + Wo, :].transpose(0, 4, 1, 2, 3)
