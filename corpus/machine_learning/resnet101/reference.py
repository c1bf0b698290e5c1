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


def _max_pool(x, k, stride, pad):
    """Max pool over the last two axes of (C N H W), padding with -inf (PyTorch's MaxPool2d)."""
    C, N, H, W = x.shape
    OH, OW = (H + 2 * pad - k) // stride + 1, (W + 2 * pad - k) // stride + 1
    if pad:
        xp = np.full((C, N, H + 2 * pad, W + 2 * pad), -np.inf, dtype=x.dtype)
        xp[:, :, pad:pad + H, pad:pad + W] = x
    else:
        xp = x
    hs, ws = (OH - 1) * stride + 1, (OW - 1) * stride + 1
    out = xp[:, :, 0:hs:stride, 0:ws:stride].copy()
    for p in range(k):
        for q in range(k):
            np.maximum(out, xp[:, :, p:p + hs:stride, q:q + ws:stride], out=out)
    return out


def _filters(u, o, c, k, gain):
    """o filters of c x k x k from the packed values u (drawn in [-1, 1]): each filter is standardized
    over its fan_in = c*k*k values (mean removed, then scaled so its mean square is gain / fan_in)."""
    w = u.reshape(o, c * k * k)
    d = w - w.mean(axis=1).reshape(o, 1)
    s = np.sqrt((d * d).mean(axis=1)).reshape(o, 1)
    return (d * (np.sqrt(gain / (c * k * k)) / s)).reshape(o, c, k, k)


def _fc_weight(u, fin, fout, gain):
    """A fully connected weight, input-major (fin x fout), from the packed values u (drawn in [-1, 1]):
    each column (output unit) standardized over its fin values to mean 0 and mean square gain / fin."""
    w = u.reshape(fin, fout)
    d = w - w.mean(axis=0)
    return d * (np.sqrt(gain / fin) / np.sqrt((d * d).mean(axis=0)))


class _Unpack:
    """Walks the packed parameter arrays in the documented order."""

    def __init__(self, conv_w, bn_gamma, bn_beta, bn_mean, bn_var, eps):
        self.conv_w, self.cw = conv_w, 0
        self.bn, self.cb = (bn_gamma, bn_beta, bn_mean, bn_var), 0
        self.eps = eps

    def conv(self, o, c, k, damp=1):
        """Next o x c x k x k filter, standardized to mean square 2 / (fan_in*damp) (He for damp = 1)."""
        n = o * c * k * k
        w = _filters(self.conv_w[self.cw:self.cw + n], o, c, k, 2.0 / damp)
        self.cw += n
        return w

    def bn_apply(self, x):
        """Next batch norm (inference, running statistics) over the channel axis 0 of x (C N H W)."""
        c = x.shape[0]
        g, b, m, v = (a[self.cb:self.cb + c].reshape(c, 1, 1, 1) for a in self.bn)
        self.cb += c
        return (x - m) * (g / np.sqrt(v + self.eps)) + b


def _bottleneck(u, x, cin, w, stride, blocks):
    h = np.maximum(u.bn_apply(_conv2d(x, u.conv(w, cin, 1), 1, 0)), 0)
    h = np.maximum(u.bn_apply(_conv2d(h, u.conv(w, w, 3), stride, 1)), 0)
    h = u.bn_apply(_conv2d(h, u.conv(4 * w, w, 1, blocks), 1, 0))     # damped: last conv of the branch
    if stride != 1 or cin != 4 * w:
        x = u.bn_apply(_conv2d(x, u.conv(4 * w, cin, 1), stride, 0))
    return np.maximum(h + x, 0)


def resnet101(x, conv_w, bn_gamma, bn_beta, bn_mean, bn_var, fc_w, fc_b, out,
              batch_size, height, width, num_classes, C, eps):
    """ResNet-101 inference (KernelBench level 3 #10) with base width C."""
    u = _Unpack(conv_w, bn_gamma, bn_beta, bn_mean, bn_var, eps)
    h = x.transpose(1, 0, 2, 3)                                        # channel-first inside
    h = np.maximum(u.bn_apply(_conv2d(h, u.conv(C, 3, 7), 2, 3)), 0)
    h = _max_pool(h, 3, 2, 1)
    cin = C
    for w, blocks, stride in ((C, 3, 1), (2 * C, 4, 2), (4 * C, 23, 2), (8 * C, 3, 2)):
        h = _bottleneck(u, h, cin, w, stride, blocks)
        for _ in range(1, blocks):
            h = _bottleneck(u, h, 4 * w, w, 1, blocks)
        cin = 4 * w
    h = h.mean(axis=(2, 3)).T                                          # adaptive average pool to 1x1
    out[:] = h @ _fc_weight(fc_w, 32 * C, num_classes, 1.0) + fc_b
