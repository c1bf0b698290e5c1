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


def conv_transpose3d_batch_norm_avg_pool_avg_pool(bias, bn_bias, bn_weight, out, weight, x, C, D, H, K, N, O, PAD, STRIDE, W, eps):
    """Two 2x2x2 average pools of BatchNorm3d(conv_transpose3d(x)), batch statistics."""
    z = _conv_transpose3d(x, weight, bias, STRIDE, PAD, 0)
    cnt = N * z.shape[2] * z.shape[3] * z.shape[4]
    mean = z.sum(axis=(0, 2, 3, 4)) / cnt
    d = z - mean[:, None, None, None]
    var = (d * d).sum(axis=(0, 2, 3, 4)) / cnt
    y = d / np.sqrt(var + eps)[:, None, None, None] * bn_weight[:, None, None, None] + bn_bias[:, None, None, None]
    Dp, Hp, Wp = y.shape[2] // 2, y.shape[3] // 2, y.shape[4] // 2
    a = y[:, :, :Dp * 2, :Hp * 2, :Wp * 2].reshape(N, y.shape[1], Dp, 2, Hp, 2, Wp, 2).sum(axis=(3, 5, 7)) / 8
    Dp, Hp, Wp = a.shape[2] // 2, a.shape[3] // 2, a.shape[4] // 2
    b = a[:, :, :Dp * 2, :Hp * 2, :Wp * 2].reshape(N, a.shape[1], Dp, 2, Hp, 2, Wp, 2).sum(axis=(3, 5, 7)) / 8
    out[...] = b
