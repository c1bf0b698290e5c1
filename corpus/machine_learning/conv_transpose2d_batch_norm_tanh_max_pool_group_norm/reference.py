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


def conv_transpose2d_batch_norm_tanh_max_pool_group_norm(bias, bn_bias, bn_weight, gn_bias, gn_weight, out, weight, x, C, CG, G, H, K, N, PAD, STRIDE, W, bn_eps, gn_eps):
    """GroupNorm(MaxPool2d(tanh(BatchNorm2d(conv_transpose2d(x))))), batch statistics."""
    z = _conv_transpose2d(x, weight, bias, STRIDE, PAD, 0)
    O = G * CG
    Ho, Wo = z.shape[2], z.shape[3]
    mean = z.sum(axis=(0, 2, 3)) / (N * Ho * Wo)
    d = z - mean[:, None, None]
    var = (d * d).sum(axis=(0, 2, 3)) / (N * Ho * Wo)
    t = np.tanh(d / np.sqrt(var + bn_eps)[:, None, None] * bn_weight[:, None, None] + bn_bias[:, None, None])
    Hp, Wp = Ho // 2, Wo // 2
    m = t[:, :, :2 * Hp, :2 * Wp].reshape(N, O, Hp, 2, Wp, 2).max(axis=(3, 5))
    g = m.reshape(N, G, CG * Hp * Wp)
    gmean = g.sum(axis=2) / (CG * Hp * Wp)
    gd = g - gmean[:, :, None]
    gvar = (gd * gd).sum(axis=2) / (CG * Hp * Wp)
    y = (gd / np.sqrt(gvar + gn_eps)[:, :, None]).reshape(N, O, Hp, Wp)
    out[...] = y * gn_weight[:, None, None] + gn_bias[:, None, None]
