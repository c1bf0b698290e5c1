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


def conv_transpose2d_softmax_bias_add_scaling_sigmoid(add_bias, bias, out, weight, x, C, H, K, N, O, OPAD, PAD, STRIDE, W, scaling_factor):
    """sigmoid(scaling_factor * (softmax over channels of conv_transpose2d(x) + add_bias))."""
    z = _conv_transpose2d(x, weight, bias, STRIDE, PAD, OPAD)
    e = np.exp(z - z.max(axis=1)[:, None])
    s = e / e.sum(axis=1)[:, None]
    out[...] = 1 / (1 + np.exp(-(s + add_bias[:, None, None]) * scaling_factor))
