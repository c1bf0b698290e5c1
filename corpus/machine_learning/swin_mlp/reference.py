import numpy as np
import scipy.special

DEPTHS = (2, 2, 6, 2)   # blocks per stage
HEADS = (3, 6, 12, 24)  # spatial-MLP heads per stage


def _layer_norm(v, gamma, beta, eps):
    mean = v.mean(axis=-1, keepdims=True)
    var = ((v - mean) ** 2).mean(axis=-1, keepdims=True)
    return (v - mean) / np.sqrt(var + eps) * gamma + beta


def _gelu(v):
    return 0.5 * v * (1 + scipy.special.erf(v * v.dtype.type(1.0 / np.sqrt(2.0))))


class _Packed:
    """Hands out consecutive tensors of one flat parameter array, scaled by 1/sqrt(fan_in)."""

    def __init__(self, flat):
        self.flat = flat
        self.pos = 0

    def take(self, shape, fan_in=None):
        n = int(np.prod(shape))
        t = self.flat[self.pos:self.pos + n].reshape(shape)
        self.pos += n
        if fan_in is not None:
            t = t * t.dtype.type(1.0 / np.sqrt(fan_in))
        return t


def _spatial_mlp(v, B, R, C, heads, ws, shift, w, b):
    """Window (shift 0) or shifted-window (zero padding) spatial MLP: in every ws x ws window and head,
    out[o] = sum_i w[h, i, o] * in[i] + b[h, o] over the window's ws*ws positions."""
    d = C // heads
    if shift > 0:  # pad ws-shift before and shift after along both spatial axes
        p = np.zeros((B, R + ws, R + ws, C), dtype=v.dtype)
        p[:, ws - shift:ws - shift + R, ws - shift:ws - shift + R] = v
        v = p
    Rp = v.shape[1]
    n = Rp // ws
    win = v.reshape(B, n, ws, n, ws, heads, d).transpose(0, 1, 3, 5, 2, 4, 6).reshape(B, n, n, heads, ws * ws, d)
    y = np.matmul(w.transpose(0, 2, 1), win) + b[:, :, None]
    y = y.reshape(B, n, n, heads, ws, ws, d).transpose(0, 1, 4, 2, 5, 3, 6).reshape(B, Rp, Rp, C)
    if shift > 0:
        y = y[:, ws - shift:ws - shift + R, ws - shift:ws - shift + R]
    return y


def swin_mlp(x, patch_w, patch_b, ln_g, ln_b, spatial_w, spatial_b, fc1_w, fc1_b, fc2_w, fc2_b, merge_w,
             head_w, head_b, out, batch_size, num_classes, embed_dim, window_size, eps):
    """Swin-MLP (Swin-T layout: depths 2, 2, 6, 2) on 4x4 patches of a (32*window_size)^2 image."""
    B, E, ws = batch_size, embed_dim, window_size
    dt = x.dtype.type
    G, Bt = _Packed(ln_g), _Packed(ln_b)
    SW, SB = _Packed(spatial_w), _Packed(spatial_b)
    F1W, F1B, F2W, F2B = _Packed(fc1_w), _Packed(fc1_b), _Packed(fc2_w), _Packed(fc2_b)
    MW = _Packed(merge_w)
    R = 8 * ws  # patches per side
    # Patch embedding: 4x4 stride-4 convolution as one matmul over (c, u, v) pixels, then LayerNorm.
    cols = x.reshape(B, 3, R, 4, R, 4).transpose(0, 2, 4, 1, 3, 5).reshape(B * R * R, 48)
    t = cols @ (patch_w * dt(1.0 / np.sqrt(48))) + patch_b * dt(1.0 / np.sqrt(48))
    t = _layer_norm(t, G.take((E,)), Bt.take((E,)), eps).reshape(B, R, R, E)
    C = E
    for stage in range(4):
        heads = HEADS[stage]
        win = min(ws, R)  # a stage no larger than the window is one window, never shifted
        for blk in range(DEPTHS[stage]):
            shift = 0 if (blk % 2 == 0 or R <= ws) else ws // 2
            h = _layer_norm(t, G.take((C,)), Bt.take((C,)), eps)
            sw = SW.take((heads, win * win, win * win), win * win)
            sb = SB.take((heads, win * win), win * win)
            t = t + _spatial_mlp(h, B, R, C, heads, win, shift, sw, sb)
            h = _layer_norm(t, G.take((C,)), Bt.take((C,)), eps)
            h = _gelu(h @ F1W.take((C, 4 * C), C) + F1B.take((4 * C,), C))
            t = t + (h @ F2W.take((4 * C, C), 4 * C) + F2B.take((C,), 4 * C))
        if stage < 3:  # patch merging: 2x2 neighbours concatenated (0,0), (1,0), (0,1), (1,1), 4C -> 2C
            m = np.concatenate([t[:, 0::2, 0::2], t[:, 1::2, 0::2], t[:, 0::2, 1::2], t[:, 1::2, 1::2]], axis=-1)
            m = _layer_norm(m, G.take((4 * C,)), Bt.take((4 * C,)), eps)
            t = m @ MW.take((4 * C, 2 * C), 4 * C)
            C *= 2
            R //= 2
    t = _layer_norm(t.reshape(B, R * R, C), G.take((C,)), Bt.take((C,)), eps)
    out[:] = t.mean(axis=1) @ (head_w * dt(1.0 / np.sqrt(C))) + head_b * dt(1.0 / np.sqrt(C))
