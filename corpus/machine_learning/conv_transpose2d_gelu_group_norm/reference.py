import math

import numpy as np
from scipy.special import erf


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


def conv_transpose2d_gelu_group_norm(bias, gn_bias, gn_weight, out, weight, x, C, CG, G, H, K, N, STRIDE, W, eps):
    """GroupNorm(GELU(conv_transpose2d(x)))."""
    z = _conv_transpose2d(x, weight, bias, STRIDE, 0, 0)
    O = G * CG
    Ho, Wo = z.shape[2], z.shape[3]
    v = 0.5 * z * (1 + erf(z / math.sqrt(2)))
    g = v.reshape(N, G, CG * Ho * Wo)
    mean = g.sum(axis=2) / (CG * Ho * Wo)
    d = g - mean[:, :, None]
    var = (d * d).sum(axis=2) / (CG * Ho * Wo)
    y = (d / np.sqrt(var + eps)[:, :, None]).reshape(N, O, Ho, Wo)
    out[...] = y * gn_weight[:, None, None] + gn_bias[:, None, None]
