import numpy as np


def conv_depthwise_2d_asymmetric_input_asymmetric_kernel(out, weight, x, C, DIL_H, DIL_W, H, KH, KW, N, STRIDE_H, STRIDE_W, W):
    """Per-channel KH x KW convolution of x with strides and dilations (no padding), weight: C x KH x KW, no bias."""
    Ho = (H - DIL_H * (KH - 1) - 1) // STRIDE_H + 1
    Wo = (W - DIL_W * (KW - 1) - 1) // STRIDE_W + 1
    acc = np.zeros((N, C, Ho, Wo), dtype=x.dtype)
    for p in range(KH):
        for q in range(KW):
            i, j = p * DIL_H, q * DIL_W
            window = x[:, :, i:i + (Ho - 1) * STRIDE_H + 1:STRIDE_H, j:j + (Wo - 1) * STRIDE_W + 1:STRIDE_W]
            acc += weight[:, p, q, None, None] * window
    out[...] = acc
