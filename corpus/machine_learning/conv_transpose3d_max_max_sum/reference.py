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


def conv_transpose3d_max_max_sum(bias, out, weight, x, C, D, H, K, N, O, P1, P2, PAD, STRIDE, W):
    """Channel sum of two max pools of conv_transpose3d(x)."""
    z = _conv_transpose3d(x, weight, bias, STRIDE, PAD, 0)
    Dp, Hp, Wp = z.shape[2] // P1, z.shape[3] // P1, z.shape[4] // P1
    a = z[:, :, :Dp * P1, :Hp * P1, :Wp * P1].reshape(N, z.shape[1], Dp, P1, Hp, P1, Wp, P1).max(axis=(3, 5, 7))
    Dp, Hp, Wp = a.shape[2] // P2, a.shape[3] // P2, a.shape[4] // P2
    b = a[:, :, :Dp * P2, :Hp * P2, :Wp * P2].reshape(N, a.shape[1], Dp, P2, Hp, P2, Wp, P2).max(axis=(3, 5, 7))
    out[:, 0] = b.sum(axis=1)
