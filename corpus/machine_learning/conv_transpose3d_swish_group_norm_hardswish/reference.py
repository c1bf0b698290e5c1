import numpy as np


def _conv_transpose3d(x, weight, bias, stride, pad, opad):
    """PyTorch ConvTranspose3d: x[n, c, d, h, w] scatters weight[c, :, a, b, e] * x to
    (d*stride-pad+a, h*stride-pad+b, w*stride-pad+e); each output extent is
    (size-1)*stride-2*pad+K+opad."""
    N, C, D, H, W = x.shape
    O, K = weight.shape[1], weight.shape[2]
    lens = [(L - 1) * stride - 2 * pad + K + opad for L in (D, H, W)]
    full = [max((L - 1) * stride + K, pad + Lo) for L, Lo in zip((D, H, W), lens)]
    acc = np.zeros((N, full[0], full[1], full[2], O), dtype=x.dtype)  # channels last
    for a in range(K):
        for b in range(K):
            for e in range(K):
                acc[:, a:a + (D - 1) * stride + 1:stride, b:b + (H - 1) * stride + 1:stride,
                    e:e + (W - 1) * stride + 1:stride, :] += np.tensordot(x, weight[:, :, a, b, e], axes=([1], [0]))
    y = acc[:, pad:pad + lens[0], pad:pad + lens[1], pad:pad + lens[2], :].transpose(0, 4, 1, 2, 3)
    if bias is not None:
        y = y + bias[:, None, None, None]
    return y


def conv_transpose3d_swish_group_norm_hardswish(bias, gn_bias, gn_weight, out, weight, x, C, CG, D, G, H, K, N, PAD, STRIDE, W, eps):
    """hardswish(GroupNorm(swish(conv_transpose3d(x))))."""
    z = _conv_transpose3d(x, weight, bias, STRIDE, PAD, 0)
    v = z / (1 + np.exp(-z))
    O = G * CG
    Do, Ho, Wo = z.shape[2], z.shape[3], z.shape[4]
    g = v.reshape(N, G, CG * Do * Ho * Wo)
    mean = g.sum(axis=2) / (CG * Do * Ho * Wo)
    d = g - mean[:, :, None]
    var = (d * d).sum(axis=2) / (CG * Do * Ho * Wo)
    y = (d / np.sqrt(var + eps)[:, :, None]).reshape(N, O, Do, Ho, Wo) * gn_weight[:, None, None, None] + gn_bias[:, None, None, None]
    out[...] = y * np.clip(y + 3, 0, 6) / 6
