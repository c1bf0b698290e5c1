import numpy as np


def vision_attention(x, w_in, b_in, w_out, b_out, gamma, beta, out,
                     batch_size, num_heads, head_dim, image_height, image_width, eps):
    """Multi-head self-attention over the pixels of each image, residual, LayerNorm over channels."""
    E = num_heads * head_dim
    L = image_height * image_width
    scale = x.dtype.type(1.0 / np.sqrt(head_dim))
    for b in range(batch_size):  # one image at a time keeps the L x L scores small
        t = x[b].reshape(E, L).T                                      # L tokens x E channels
        qkv = t @ w_in + b_in
        q = qkv[:, :E].reshape(L, num_heads, head_dim).transpose(1, 0, 2)
        k = qkv[:, E:2 * E].reshape(L, num_heads, head_dim).transpose(1, 0, 2)
        v = qkv[:, 2 * E:].reshape(L, num_heads, head_dim).transpose(1, 0, 2)
        s = (q @ k.transpose(0, 2, 1)) * scale
        p = np.exp(s - s.max(axis=2, keepdims=True))
        p /= p.sum(axis=2, keepdims=True)
        a = (p @ v).transpose(1, 0, 2).reshape(L, E) @ w_out + b_out + t
        mean = a.mean(axis=1, keepdims=True)
        var = ((a - mean) ** 2).mean(axis=1, keepdims=True)
        y = (a - mean) / np.sqrt(var + eps) * gamma + beta
        out[b] = y.T.reshape(E, image_height, image_width)
