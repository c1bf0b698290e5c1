import numpy as np


def _layer_norm(v, gamma, beta, eps):
    mean = v.mean(axis=-1, keepdims=True)
    var = ((v - mean) ** 2).mean(axis=-1, keepdims=True)
    return (v - mean) / np.sqrt(var + eps) * gamma + beta


def convolutional_vision_transformer(x, conv_w, conv_b, proj_w, proj_b, cls_token,
                                     attn_in_w, attn_in_b, attn_out_w, attn_out_b, norm1_g, norm1_b,
                                     ff1_w, ff1_b, ff2_w, ff2_b, norm2_g, norm2_b, fc_w, fc_b, out,
                                     batch_size, patch_grid, patch_size, embed_dim, num_heads, num_layers,
                                     num_classes, eps):
    """CViT: a patch_size-strided convolution, flattened and projected to one token per image, a [CLS]
    token beside it, post-norm transformer encoder layers over the two tokens, a linear head on [CLS]."""
    B, g, p, E = batch_size, patch_grid, patch_size, embed_dim
    hd = E // num_heads
    # Non-overlapping patches: the convolution is one matmul over rows (image, i, j) of (c, u, v) pixels.
    cols = x.reshape(B, 3, g, p, g, p).transpose(0, 2, 4, 1, 3, 5).reshape(B * g * g, 3 * p * p)
    feat = (cols @ conv_w + conv_b).reshape(B, g * g, E)
    # flatten(start_dim=1) of the B x E x g x g map: feature index e*g*g + i*g + j.
    flat = feat.transpose(0, 2, 1).reshape(B, E * g * g)
    t = np.empty((B, 2, E), dtype=x.dtype)
    t[:, 0] = cls_token
    t[:, 1] = flat @ proj_w + proj_b
    s = t.reshape(B * 2, E)
    scale = x.dtype.type(1.0 / np.sqrt(hd))
    for layer in range(num_layers):
        qkv = s @ attn_in_w[layer] + attn_in_b[layer]
        q = qkv[:, :E].reshape(B, 2, num_heads, hd).transpose(0, 2, 1, 3)
        k = qkv[:, E:2 * E].reshape(B, 2, num_heads, hd).transpose(0, 2, 1, 3)
        v = qkv[:, 2 * E:].reshape(B, 2, num_heads, hd).transpose(0, 2, 1, 3)
        sc = (q @ k.transpose(0, 1, 3, 2)) * scale  # image x head x 2 x 2
        w = np.exp(sc - sc.max(axis=3, keepdims=True))
        w /= w.sum(axis=3, keepdims=True)
        a = (w @ v).transpose(0, 2, 1, 3).reshape(B * 2, E) @ attn_out_w[layer] + attn_out_b[layer]
        s = _layer_norm(s + a, norm1_g[layer], norm1_b[layer], eps)
        f = np.maximum(s @ ff1_w[layer] + ff1_b[layer], 0) @ ff2_w[layer] + ff2_b[layer]
        s = _layer_norm(s + f, norm2_g[layer], norm2_b[layer], eps)
    out[:] = s.reshape(B, 2, E)[:, 0] @ fc_w + fc_b
