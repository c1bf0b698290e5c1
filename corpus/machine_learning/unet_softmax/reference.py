import numpy as np

# Activations are kept channel-first inside, (C N H W): every convolution is then one matmul of the
# filters (O x KH*KW*C) with an im2col matrix built from whole image rows.
_IM2COL_LIMIT = 1 << 24   # largest im2col matrix (elements); one image above it: one matmul per kernel tap


def _conv2d(x, w, stride, pad):
    """Convolution without bias: x (C N H W), w (O C KH KW) OIHW -> (O N OH OW),
    out[o, n, i, j] = sum_{c, p, q} w[o, c, p, q] * xpad[c, n, i*stride + p, j*stride + q]."""
    C, N, H, W = x.shape
    O, _, KH, KW = w.shape
    OH, OW = (H + 2 * pad - KH) // stride + 1, (W + 2 * pad - KW) // stride + 1
    if KH == 1 and KW == 1 and stride == 1 and pad == 0:
        return (w.reshape(O, C) @ x.reshape(C, N * H * W)).reshape(O, N, H, W)
    if pad:
        xp = np.zeros((C, N, H + 2 * pad, W + 2 * pad), dtype=x.dtype)
        xp[:, :, pad:pad + H, pad:pad + W] = x
    else:
        xp = x
    hs, ws = (OH - 1) * stride + 1, (OW - 1) * stride + 1
    wm = np.ascontiguousarray(w.transpose(0, 2, 3, 1))              # O KH KW C: im2col rows in (p, q, c) order
    per_image = KH * KW * C * OH * OW
    if per_image <= _IM2COL_LIMIT:
        # im2col over blocks of images, one matmul per block
        y = np.empty((O, N, OH, OW), dtype=x.dtype)
        nb = max(1, _IM2COL_LIMIT // per_image)
        for n0 in range(0, N, nb):
            b = min(nb, N - n0)
            cols = np.empty((KH, KW, C, b, OH, OW), dtype=x.dtype)
            for p in range(KH):
                for q in range(KW):
                    cols[p, q] = xp[:, n0:n0 + b, p:p + hs:stride, q:q + ws:stride]
            y[:, n0:n0 + b] = (wm.reshape(O, KH * KW * C) @ cols.reshape(KH * KW * C, b * OH * OW)).reshape(O, b, OH, OW)
        return y
    # one image is too big for im2col: one matmul per kernel tap over the whole batch
    y = np.zeros((O, N * OH * OW), dtype=x.dtype)
    for p in range(KH):
        for q in range(KW):
            y += np.ascontiguousarray(wm[:, p, q, :]) @ xp[:, :, p:p + hs:stride, q:q + ws:stride].reshape(C, N * OH * OW)
    return y.reshape(O, N, OH, OW)


class _Unpack:
    """Walks the packed arrays in the documented order."""

    def __init__(self, conv_w, conv_b, up_w, up_b, bn_gamma, bn_beta, eps):
        self.a = dict(conv_w=conv_w, conv_b=conv_b, up_w=up_w, up_b=up_b, bn_gamma=bn_gamma, bn_beta=bn_beta)
        self.off = dict.fromkeys(self.a, 0)
        self.eps = eps

    def take(self, name, n):
        o = self.off[name]
        self.off[name] = o + n
        return self.a[name][o:o + n]

    def conv(self, x, o, k):
        """k x k convolution (padding k // 2, bias); filter scaled from [-1, 1] by sqrt(6 / fan_in)."""
        c = x.shape[0]
        w = self.take('conv_w', o * c * k * k).reshape(o, c, k, k) * np.sqrt(6.0 / (c * k * k))
        return _conv2d(x, w, 1, k // 2) + self.take('conv_b', o).reshape(o, 1, 1, 1)

    def bn_softmax(self, y):
        """Batch norm with batch statistics (biased variance over batch, rows, columns), then a
        softmax along the width axis (PyTorch's dim=-1 of NCHW)."""
        o = y.shape[0]
        g, b = self.take('bn_gamma', o).reshape(o, 1, 1, 1), self.take('bn_beta', o).reshape(o, 1, 1, 1)
        mean = y.mean(axis=(1, 2, 3)).reshape(o, 1, 1, 1)
        d = y - mean
        var = (d * d).mean(axis=(1, 2, 3)).reshape(o, 1, 1, 1)
        z = d * (g / np.sqrt(var + self.eps)) + b
        e = np.exp(z - z.max(axis=3)[:, :, :, None])
        return e / e.sum(axis=3)[:, :, :, None]

    def double_conv(self, x, o):
        return self.bn_softmax(self.conv(self.bn_softmax(self.conv(x, o, 3)), o, 3))

    def up(self, x, o):
        """ConvTranspose2d(kernel 2, stride 2): y[n, 2i+p, 2j+q, o] = sum_c x[n, i, j, c] * w[c, o, p, q] + b[o];
        w scaled from [-1, 1] by sqrt(6 / c_in)."""
        c, N, H, W = x.shape
        w = self.take('up_w', c * o * 4).reshape(c, o * 4) * np.sqrt(6.0 / c)
        y = (w.T @ x.reshape(c, N * H * W)).reshape(o, 2, 2, N, H, W).transpose(0, 3, 4, 1, 5, 2)
        return y.reshape(o, N, 2 * H, 2 * W) + self.take('up_b', o).reshape(o, 1, 1, 1)


def _pool2(x):
    """2x2 max pool, stride 2 (height and width are even here)."""
    C, N, H, W = x.shape
    return x.reshape(C, N, H // 2, 2, W // 2, 2).max(axis=(3, 5))


def unet_softmax(x, conv_w, conv_b, up_w, up_b, bn_gamma, bn_beta, out,
                 batch_size, in_channels, out_channels, height, width, features, eps):
    """KernelBench level 3 #45 UNetSoftmax; NCHW input and output, channel-first (C N H W) inside."""
    u = _Unpack(conv_w, conv_b, up_w, up_b, bn_gamma, bn_beta, eps)
    f = features
    enc1 = u.double_conv(x.transpose(1, 0, 2, 3), f)
    enc2 = u.double_conv(_pool2(enc1), 2 * f)
    enc3 = u.double_conv(_pool2(enc2), 4 * f)
    enc4 = u.double_conv(_pool2(enc3), 8 * f)
    h = u.double_conv(_pool2(enc4), 16 * f)
    for skip, m in ((enc4, 8), (enc3, 4), (enc2, 2), (enc1, 1)):
        h = u.double_conv(np.concatenate((u.up(h, m * f), skip), axis=0), m * f)   # upsampled channels first
    out[:] = u.conv(h, out_channels, 1).transpose(1, 0, 2, 3)
