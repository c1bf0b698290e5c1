import numpy as np


def conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated(out, weight, x, CG, DIL_H, DIL_W, G, H, KH, KW, N, OG, PAD_H, PAD_W, STRIDE_H, STRIDE_W, W):
    """Grouped transposed convolution: pixel (h, w) of group g scatters to (h*STRIDE_H + p*DIL_H - PAD_H, w*STRIDE_W + q*DIL_W - PAD_W)."""
    Hf = (H - 1) * STRIDE_H + DIL_H * (KH - 1) + 1  # the uncropped extents
    Wf = (W - 1) * STRIDE_W + DIL_W * (KW - 1) + 1
    Ho, Wo = Hf - 2 * PAD_H, Wf - 2 * PAD_W
    xl = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).reshape(N * H * W, G * CG)  # channels last, one row per pixel
    acc = np.zeros((N, Hf, Wf, G * OG), dtype=x.dtype)  # channels last while accumulating
    for g in range(G):
        ci, co = slice(g * CG, (g + 1) * CG), slice(g * OG, (g + 1) * OG)
        for p in range(KH):
            for q in range(KW):
                i, j = p * DIL_H, q * DIL_W
                contrib = (xl[:, ci] @ weight[ci, :, p, q]).reshape(N, H, W, OG)
                acc[:, i:i + (H - 1) * STRIDE_H + 1:STRIDE_H, j:j + (W - 1) * STRIDE_W + 1:STRIDE_W, co] += contrib
    out[...] = acc[:, PAD_H:PAD_H + Ho, PAD_W:PAD_W + Wo, :].transpose(0, 3, 1, 2)
