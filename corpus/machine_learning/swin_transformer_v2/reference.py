import numpy as np
import scipy.special

DEPTHS = (2, 2, 6, 2)   # blocks per stage
HEADS = (3, 6, 12, 24)  # attention heads per stage


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


def _relative_geometry(ws, dtype):
    """The continuous position table ((2ws-1)^2 x 2, log-spaced coordinates in about [-1, 1]) and, for
    every pair of positions (i, j) of a ws x ws window, the table row of their offset."""
    r = np.arange(-(ws - 1), ws, dtype=np.float64) / (ws - 1) * 8
    r = np.sign(r) * np.log2(np.abs(r) + 1.0) / np.log2(8)
    table = np.stack(np.meshgrid(r, r, indexing="ij"), axis=-1).reshape(-1, 2).astype(dtype)
    ph, pw = np.divmod(np.arange(ws * ws), ws)
    index = (ph[:, None] - ph[None, :] + ws - 1) * (2 * ws - 1) + (pw[:, None] - pw[None, :] + ws - 1)
    return table, index


def _shift_mask(R, ws, shift, dtype):
    """-100 between positions of a shifted window that came from different regions of the rolled map."""
    band = np.zeros(R, dtype=np.int64)
    band[R - ws:R - shift] = 1
    band[R - shift:] = 2
    label = 3 * band[:, None] + band[None, :]
    n = R // ws
    lw = label.reshape(n, ws, n, ws).transpose(0, 2, 1, 3).reshape(n * n, ws * ws)
    return np.where(lw[:, None, :] != lw[:, :, None], dtype(-100.0), dtype(0.0))


def swin_transformer_v2(x, patch_w, patch_b, ln_g, ln_b, logit_scale, cpb_w1, cpb_b1, cpb_w2,
                        qkv_w, q_bias, v_bias, proj_w, proj_b, fc1_w, fc1_b, fc2_w, fc2_b, merge_w,
                        head_w, head_b, out,
                        batch_size, image_size, patch_size, embed_dim, window_size, num_classes, eps):
    """Swin Transformer V2 (Swin-T layout: depths 2, 2, 6, 2): scaled cosine window attention with a
    continuous relative position bias, residual post-normalisation, shifted windows on odd blocks."""
    B, E, p = batch_size, embed_dim, patch_size
    dt = x.dtype.type
    G, Bt, LS = _Packed(ln_g), _Packed(ln_b), _Packed(logit_scale)
    W1, B1, W2 = _Packed(cpb_w1), _Packed(cpb_b1), _Packed(cpb_w2)
    QW, QB, VB, PW, PB = _Packed(qkv_w), _Packed(q_bias), _Packed(v_bias), _Packed(proj_w), _Packed(proj_b)
    F1W, F1B, F2W, F2B = _Packed(fc1_w), _Packed(fc1_b), _Packed(fc2_w), _Packed(fc2_b)
    MW = _Packed(merge_w)
    R = image_size // p  # patches per side
    # Patch embedding: p x p stride-p convolution as one matmul over (c, u, v) pixels, then LayerNorm.
    cols = x.reshape(B, 3, R, p, R, p).transpose(0, 2, 4, 1, 3, 5).reshape(B * R * R, 3 * p * p)
    fan = 3 * p * p
    t = cols @ (patch_w * dt(1.0 / np.sqrt(fan))) + patch_b * dt(1.0 / np.sqrt(fan))
    t = _layer_norm(t, G.take((E,)), Bt.take((E,)), eps).reshape(B, R, R, E)
    C = E
    for stage in range(4):
        nh = HEADS[stage]
        hd = C // nh
        ws = min(window_size, R)  # a stage no larger than the window is one window, never shifted
        N = ws * ws
        n = R // ws
        table, index = _relative_geometry(ws, x.dtype)
        for blk in range(DEPTHS[stage]):
            shift = 0 if (blk % 2 == 0 or R <= window_size) else window_size // 2
            g1, b1 = G.take((C,)), Bt.take((C,))
            scale = np.exp(np.minimum(LS.take((nh,)), dt(np.log(100.0))))
            # Continuous relative position bias: a 2 -> 512 -> heads MLP on the offset table.
            hidden = np.maximum(table @ W1.take((2, 512), 2) + B1.take((512,), 2), 0)
            bias = (hidden @ W2.take((512, nh), 512))[index]            # N x N x heads
            bias = 16 / (1 + np.exp(-bias.transpose(2, 0, 1)))          # heads x N x N
            wq = QW.take((C, 3 * C), C)
            qb, vb = QB.take((C,), C), VB.take((C,), C)
            wp, bp = PW.take((C, C), C), PB.take((C,), C)
            g2, b2 = G.take((C,)), Bt.take((C,))
            v = np.roll(t, (-shift, -shift), axis=(1, 2)) if shift else t
            win = v.reshape(B, n, ws, n, ws, C).transpose(0, 1, 3, 2, 4, 5).reshape(B, n * n, N, C)
            qkv = win @ wq
            qkv[..., :C] += qb   # the key projection has no bias
            qkv[..., 2 * C:] += vb
            qkv = qkv.reshape(B, n * n, N, 3, nh, hd).transpose(3, 0, 1, 4, 2, 5)  # 3 x B x win x head x N x hd
            q, k, vv = qkv[0], qkv[1], qkv[2]
            q = q / np.maximum(np.sqrt((q * q).sum(axis=-1, keepdims=True)), dt(1e-12))
            k = k / np.maximum(np.sqrt((k * k).sum(axis=-1, keepdims=True)), dt(1e-12))
            a = (q @ k.transpose(0, 1, 2, 4, 3)) * scale[:, None, None] + bias
            if shift:
                a = a + _shift_mask(R, window_size, shift, dt)[:, None]
            a = np.exp(a - a.max(axis=-1, keepdims=True))
            a /= a.sum(axis=-1, keepdims=True)
            y = (a @ vv).transpose(0, 1, 3, 2, 4).reshape(B, n * n, N, C) @ wp + bp
            y = y.reshape(B, n, n, ws, ws, C).transpose(0, 1, 3, 2, 4, 5).reshape(B, R, R, C)
            if shift:
                y = np.roll(y, (shift, shift), axis=(1, 2))
            t = t + _layer_norm(y, g1, b1, eps)  # residual post-normalisation
            h = _gelu(t @ F1W.take((C, 4 * C), C) + F1B.take((4 * C,), C))
            t = t + _layer_norm(h @ F2W.take((4 * C, C), 4 * C) + F2B.take((C,), 4 * C), g2, b2, eps)
        if stage < 3:  # patch merging: 2x2 neighbours (0,0), (1,0), (0,1), (1,1), 4C -> 2C, then LayerNorm
            m = np.concatenate([t[:, 0::2, 0::2], t[:, 1::2, 0::2], t[:, 0::2, 1::2], t[:, 1::2, 1::2]], axis=-1)
            t = _layer_norm(m @ MW.take((4 * C, 2 * C), 4 * C), G.take((2 * C,)), Bt.take((2 * C,)), eps)
            C *= 2
            R //= 2
    t = _layer_norm(t.reshape(B, R * R, C), G.take((C,)), Bt.take((C,)), eps)
    out[:] = t.mean(axis=1) @ (head_w * dt(1.0 / np.sqrt(C))) + head_b * dt(1.0 / np.sqrt(C))
