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


def _max_pool_ceil(x, k, stride):
    """MaxPool2d(k, stride, ceil_mode=True) over the last two axes of (C N H W): the last window may
    hang over the edge (only real elements count), unless it would start past the end."""
    C, N, H, W = x.shape
    OH, OW = -(-(H - k) // stride) + 1, -(-(W - k) // stride) + 1
    if (OH - 1) * stride >= H:
        OH -= 1
    if (OW - 1) * stride >= W:
        OW -= 1
    xp = np.full((C, N, (OH - 1) * stride + k, (OW - 1) * stride + k), -np.inf, dtype=x.dtype)
    xp[:, :, :H, :W] = x
    return _max_pool(xp, k, stride, 0)


class _Unpack:
    """Walks conv_w / conv_b in the documented order; each filter standardized (gain 2)."""

    def __init__(self, conv_w, conv_b):
        self.conv_w, self.conv_b, self.ow, self.ob = conv_w, conv_b, 0, 0

    def conv_relu(self, x, o, k, stride, pad):
        c = x.shape[0]
        n = o * c * k * k
        w = _filters(self.conv_w[self.ow:self.ow + n], o, c, k, 2.0)
        b = self.conv_b[self.ob:self.ob + o].reshape(o, 1, 1, 1)
        self.ow += n
        self.ob += o
        return np.maximum(_conv2d(x, w, stride, pad) + b, 0)


_FIRES = ((1, 4, 4), (1, 4, 4), (2, 8, 8), None, (2, 8, 8), (3, 12, 12), (3, 12, 12), (4, 16, 16), None, (4, 16, 16))


def squeezenet(x, conv_w, conv_b, out, batch_size, height, width, num_classes, C):
    """SqueezeNet 1.0 inference (KernelBench level 3 #18) with base width C; channel-first (C N H W) inside."""
    u = _Unpack(conv_w, conv_b)
    h = u.conv_relu(x.transpose(1, 0, 2, 3), 6 * C, 7, 2, 0)
    h = _max_pool_ceil(h, 3, 2)
    for f in _FIRES:
        if f is None:
            h = _max_pool_ceil(h, 3, 2)
            continue
        s = u.conv_relu(h, f[0] * C, 1, 1, 0)                          # squeeze
        h = np.concatenate((u.conv_relu(s, f[1] * C, 1, 1, 0),         # expand 1x1
                            u.conv_relu(s, f[2] * C, 3, 1, 1)), axis=0)  # expand 3x3, channels after
    h = u.conv_relu(h, num_classes, 1, 1, 0)                           # classifier conv, then ReLU
    out[:] = h.mean(axis=(2, 3)).T                                     # adaptive average pool to 1x1
