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


def conv_transpose3d_clamp_min_divide(bias, out, weight, x, C, D, H, K, N, O, PAD, STRIDE, W, divisor, min_value):
    """max(conv_transpose3d(x), min_value) / divisor."""
    z = _conv_transpose3d(x, weight, bias, STRIDE, PAD, 0)
    out[...] = np.maximum(z, min_value) / divisor
