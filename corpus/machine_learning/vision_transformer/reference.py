import numpy as np
import scipy.special


def _layer_norm(v, gamma, beta, eps):
    mean = v.mean(axis=-1, keepdims=True)
    var = ((v - mean) ** 2).mean(axis=-1, keepdims=True)
    return (v - mean) / np.sqrt(var + eps) * gamma + beta


def vision_transformer(x, patch_w, patch_b, cls_token, pos_embedding,
                       attn_in_w, attn_in_b, attn_out_w, attn_out_b, norm1_g, norm1_b,
                       ff1_w, ff1_b, ff2_w, ff2_b, norm2_g, norm2_b,
                       head1_w, head1_b, head2_w, head2_b, out,
                       batch_size, channels, grid, patch_size, dim, num_heads, mlp_dim, num_classes, eps):
    """ViT: patch embedding, [CLS] token and position embedding, six post-norm transformer encoder
    layers, then a GELU MLP head on the [CLS] token."""
    B, C, g, p = batch_size, channels, grid, patch_size
    P = g * g
    hd = dim // num_heads
    # img.unfold(2, p, p).unfold(3, p, p) is B x C x g x g x p x p; upstream reshapes it (C order) to
    # B x P x (C*p*p), so a row is a run of that flat order, not one patch's pixels of every channel.
    rows = x.reshape(B, C, g, p, g, p).transpose(0, 1, 2, 4, 3, 5).reshape(B, P, C * p * p)
    t = np.empty((B, P + 1, dim), dtype=x.dtype)
    t[:, 0] = cls_token
    t[:, 1:] = rows @ patch_w + patch_b
    t += pos_embedding
    # Encoder layers over the P+1 tokens of each image (batch-first; see the description).
    s = t.reshape(B * (P + 1), dim)  # row = image*(P+1) + token
    scale = x.dtype.type(1.0 / np.sqrt(hd))
    for layer in range(6):
        qkv = s @ attn_in_w[layer] + attn_in_b[layer]
        q = qkv[:, :dim].reshape(B, P + 1, num_heads, hd).transpose(0, 2, 1, 3)
        k = qkv[:, dim:2 * dim].reshape(B, P + 1, num_heads, hd).transpose(0, 2, 1, 3)
        v = qkv[:, 2 * dim:].reshape(B, P + 1, num_heads, hd).transpose(0, 2, 1, 3)
        sc = (q @ k.transpose(0, 1, 3, 2)) * scale  # image x head x token x token
        w = np.exp(sc - sc.max(axis=3, keepdims=True))
        w /= w.sum(axis=3, keepdims=True)
        a = (w @ v).transpose(0, 2, 1, 3).reshape(B * (P + 1), dim) @ attn_out_w[layer] + attn_out_b[layer]
        s = _layer_norm(s + a, norm1_g[layer], norm1_b[layer], eps)
        f = np.maximum(s @ ff1_w[layer] + ff1_b[layer], 0) @ ff2_w[layer] + ff2_b[layer]
        s = _layer_norm(s + f, norm2_g[layer], norm2_b[layer], eps)
    cls = s.reshape(B, P + 1, dim)[:, 0]  # the [CLS] token of every image
    hdn = cls @ head1_w + head1_b
    hdn = 0.5 * hdn * (1 + scipy.special.erf(hdn * x.dtype.type(1.0 / np.sqrt(2.0))))
    out[:] = hdn @ head2_w + head2_b
