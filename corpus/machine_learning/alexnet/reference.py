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


def _conv_relu(h, w, b, stride, pad):
    o, c, k = w.shape[0], w.shape[1], w.shape[2]
    return np.maximum(_conv2d(h, _filters(w, o, c, k, 2.0), stride, pad) + b.reshape(o, 1, 1, 1), 0)


def alexnet(x, conv1_w, conv1_b, conv2_w, conv2_b, conv3_w, conv3_b, conv4_w, conv4_b, conv5_w, conv5_b,
            fc1_w, fc1_b, fc2_w, fc2_b, fc3_w, fc3_b, out, batch_size, num_classes, C):
    """AlexNet inference (KernelBench level 3 #5) on 224x224 images, widths 3C, 8C, 12C, 12C, 8C, 128C."""
    h = x.transpose(1, 0, 2, 3)                                        # channel-first inside
    h = _max_pool(_conv_relu(h, conv1_w, conv1_b, 4, 2), 3, 2, 0)     # 3C x 27 x 27
    h = _max_pool(_conv_relu(h, conv2_w, conv2_b, 1, 2), 3, 2, 0)     # 8C x 13 x 13
    h = _conv_relu(h, conv3_w, conv3_b, 1, 1)
    h = _conv_relu(h, conv4_w, conv4_b, 1, 1)
    h = _max_pool(_conv_relu(h, conv5_w, conv5_b, 1, 1), 3, 2, 0)     # 8C x 6 x 6
    h = h.transpose(1, 0, 2, 3).reshape(batch_size, 288 * C)          # flatten in (channel, row, column) order
    h = np.maximum(h @ _fc_weight(fc1_w, 288 * C, 128 * C, 2.0) + fc1_b, 0)
    h = np.maximum(h @ _fc_weight(fc2_w, 128 * C, 128 * C, 2.0) + fc2_b, 0)
    out[:] = h @ _fc_weight(fc3_w, 128 * C, num_classes, 1.0) + fc3_b
