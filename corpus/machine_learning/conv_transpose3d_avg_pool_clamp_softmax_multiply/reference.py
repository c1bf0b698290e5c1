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


def conv_transpose3d_avg_pool_clamp_softmax_multiply(bias, out, scale, weight, x, C, D, H, K, N, O, OPAD, P, PAD, STRIDE, W, clamp_max, clamp_min):
    """scale * softmax over positions of clamp(conv_transpose3d(AvgPool3d(x)), clamp_min, clamp_max)."""
    Dp, Hp, Wp = x.shape[2] // P, x.shape[3] // P, x.shape[4] // P
    xp = x[:, :, :Dp * P, :Hp * P, :Wp * P].reshape(N, C, Dp, P, Hp, P, Wp, P).sum(axis=(3, 5, 7)) / (P * P * P)
    z = _conv_transpose3d(xp, weight, bias, STRIDE, PAD, OPAD)
    c = np.clip(z, clamp_min, clamp_max).reshape(N, z.shape[1], -1)
    e = np.exp(c - c.max(axis=2)[:, :, None])
    s = e / e.sum(axis=2)[:, :, None]
    out[...] = s.reshape(z.shape) * scale[:, None, None, None]
