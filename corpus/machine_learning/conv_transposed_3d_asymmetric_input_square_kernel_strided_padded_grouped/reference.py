import numpy as np


def conv_transposed_3d_asymmetric_input_square_kernel_strided_padded_grouped(out, weight, x, CG, D, G, H, K, N, OG, PAD, STRIDE, W):
    """Grouped transposed convolution: voxel (d, h, w) of group g scatters to (d*STRIDE + a - PAD, h*STRIDE + b - PAD, w*STRIDE + e - PAD)."""
    Df, Hf, Wf = (D - 1) * STRIDE + K, (H - 1) * STRIDE + K, (W - 1) * STRIDE + K  # the uncropped extents
    Do, Ho, Wo = Df - 2 * PAD, Hf - 2 * PAD, Wf - 2 * PAD
    xl = np.ascontiguousarray(x.transpose(0, 2, 3, 4, 1)).reshape(N * D * H * W, G * CG)  # channels last, one row per voxel
    acc = np.zeros((N, Df, Hf, Wf, G * OG), dtype=x.dtype)  # channels last while accumulating
    for g in range(G):
        ci, co = slice(g * CG, (g + 1) * CG), slice(g * OG, (g + 1) * OG)
        for a in range(K):
            for b in range(K):
                for e in range(K):
                    contrib = (xl[:, ci] @ weight[ci, :, a, b, e]).reshape(N, D, H, W, OG)
                    acc[:, a:a + (D - 1) * STRIDE + 1:STRIDE, b:b + (H - 1) * STRIDE + 1:STRIDE,
                        e:e + (W - 1) * STRIDE + 1:STRIDE, co] += contrib
    out[...] = acc[:, PAD:PAD + Do, PAD:PAD + Ho, PAD:PAD + Wo, :].transpose(0, 4, 1, 2, 3)
