import numpy as np


def min_gpt_causal_attention(x, w_attn, b_attn, w_proj, b_proj, out, batch_size, seq_len, num_heads, head_dim):
    """Multi-head causal self-attention with softmax, then an output projection (minGPT)."""
    C = num_heads * head_dim
    scale = x.dtype.type(1.0 / np.sqrt(head_dim))
    future = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1)  # key after query
    for b in range(batch_size):  # one sequence at a time keeps the T x T scores small
        qkv = x[b] @ w_attn + b_attn                                  # T x 3C
        q = qkv[:, :C].reshape(seq_len, num_heads, head_dim).transpose(1, 0, 2)
        k = qkv[:, C:2 * C].reshape(seq_len, num_heads, head_dim).transpose(1, 0, 2)
        v = qkv[:, 2 * C:].reshape(seq_len, num_heads, head_dim).transpose(1, 0, 2)
        s = (q @ k.transpose(0, 2, 1)) * scale                        # heads x T x T
        s[:, future] = -np.inf
        p = np.exp(s - s.max(axis=2, keepdims=True))
        p /= p.sum(axis=2, keepdims=True)
        y = (p @ v).transpose(1, 0, 2).reshape(seq_len, C)
        out[b] = y @ w_proj + b_proj
