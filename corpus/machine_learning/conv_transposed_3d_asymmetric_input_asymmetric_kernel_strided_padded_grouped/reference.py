import numpy as np


def conv_transposed_3d_asymmetric_input_asymmetric_kernel_strided_padded_grouped(out, weight, x, CG, D, G, H, KD, KH, KW, N, OG, OUT_PAD, PAD_D, PAD_H, PAD_W, STRIDE, W):
    """Grouped transposed convolution: voxel (d, h, w) of group g scatters to (d*STRIDE + a - PAD_D, h*STRIDE + b - PAD_H, w*STRIDE + e - PAD_W)."""
    Df, Hf, Wf = (D - 1) * STRIDE + KD, (H - 1) * STRIDE + KH, (W - 1) * STRIDE + KW  # the uncropped extents
    Do, Ho, Wo = Df - 2 * PAD_D + OUT_PAD, Hf - 2 * PAD_H + OUT_PAD, Wf - 2 * PAD_W + OUT_PAD
    xl = np.ascontiguousarray(x.transpose(0, 2, 3, 4, 1)).reshape(N * D * H * W, G * CG)  # channels last, one row per voxel
    # output_padding may reach past the uncropped extent: those positions receive nothing
    acc = np.zeros((N, max(Df, PAD_D + Do), max(Hf, PAD_H + Ho), max(Wf, PAD_W + Wo), G * OG), dtype=x.dtype)
    for g in range(G):
        ci, co = slice(g * CG, (g + 1) * CG), slice(g * OG, (g + 1) * OG)
        for a in range(KD):
            for b in range(KH):
                for e in range(KW):
                    contrib = (xl[:, ci] @ weight[ci, :, a, b, e]).reshape(N, D, H, W, OG)
                    acc[:, a:a + (D - 1) * STRIDE + 1:STRIDE, b:b + (H - 1) * STRIDE + 1:STRIDE,
                        e:e + (W - 1) * STRIDE + 1:STRIDE, co] += contrib
    out[...] = acc[:, PAD_D:PAD_D + Do, PAD_H:PAD_H + Ho, PAD_W:PAD_W + Wo, :].transpose(0, 4, 1, 2, 3)
