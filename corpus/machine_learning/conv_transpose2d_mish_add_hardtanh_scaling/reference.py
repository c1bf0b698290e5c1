import numpy as np


def _conv_transpose2d(x, weight, bias, stride, pad, opad):
    """PyTorch ConvTranspose2d: x[n, c, i, j] scatters weight[c, :, p, q] * x to row i*stride-pad+p,
    column j*stride-pad+q; the output keeps rows and columns 0 .. (size-1)*stride-2*pad+K+opad-1."""
    N, C, H, W = x.shape
    O, K = weight.shape[1], weight.shape[2]
    Ho = (H - 1) * stride - 2 * pad + K + opad
    Wo = (W - 1) * stride - 2 * pad + K + opad
    # uncropped accumulator, channels last; row r holds output row r - pad
    acc = np.zeros((N, max((H - 1) * stride + K, pad + Ho), max((W - 1) * stride + K, pad + Wo), O), dtype=x.dtype)
    for p in range(K):
        for q in range(K):
            acc[:, p:p + (H - 1) * stride + 1:stride, q:q + (W - 1) * stride + 1:stride, :] += \
                np.tensordot(x, weight[:, :, p, q], axes=([1], [0]))
    y = acc[:, pad:pad + Ho, pad:pad + Wo, :].transpose(0, 3, 1, 2)
    if bias is not None:
        y = y + bias[:, None, None]
    return y


def conv_transpose2d_mish_add_hardtanh_scaling(bias, out, weight, x, C, H, K, N, O, PAD, STRIDE, W, add_value, scale):
    """scale * hardtanh(mish(conv_transpose2d(x)) + add_value)."""
    z = _conv_transpose2d(x, weight, bias, STRIDE, PAD, 0)
    m = z * np.tanh(np.logaddexp(0, z))
    out[...] = np.clip(m + add_value, -1, 1) * scale
