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


def _take(buf, off, n):
    return buf[off:off + n], off + n


def vgg19(x, conv_w, conv_b, fc_w, fc_b, out, batch_size, num_classes, C):
    """VGG19 inference (KernelBench level 3 #12) on 224x224 images with base width C;
    channel-first (C N H W) inside. See the manifest for the packed parameter layout and scaling."""
    h = x.transpose(1, 0, 2, 3)
    ow = ob = 0
    cin = 3
    for mult, convs in ((1, 2), (2, 2), (4, 4), (8, 4), (8, 4)):
        cout = mult * C
        for _ in range(convs):
            w, ow = _take(conv_w, ow, cout * cin * 9)
            b, ob = _take(conv_b, ob, cout)
            w = _filters(w, cout, cin, 3, 2.0)
            h = np.maximum(_conv2d(h, w, 1, 1) + b.reshape(cout, 1, 1, 1), 0)
            cin = cout
        h = _max_pool(h, 2, 2, 0)
    h = h.transpose(1, 0, 2, 3).reshape(batch_size, 392 * C)       # flatten in (channel, row, column) order
    ow = ob = 0
    for fin, fout in ((392 * C, 64 * C), (64 * C, 64 * C)):
        w, ow = _take(fc_w, ow, fin * fout)
        b, ob = _take(fc_b, ob, fout)
        h = np.maximum(h @ _fc_weight(w, fin, fout, 2.0) + b, 0)             # fc1, fc2 with ReLU
    w, ow = _take(fc_w, ow, 64 * C * num_classes)
    b, ob = _take(fc_b, ob, num_classes)
    out[:] = h @ _fc_weight(w, 64 * C, num_classes, 1.0) + b                 # fc3
