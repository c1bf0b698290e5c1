import numpy as np


def _layer_norm(v, gamma, beta, eps):
    mean = v.mean(axis=-1, keepdims=True)
    var = ((v - mean) ** 2).mean(axis=-1, keepdims=True)
    return (v - mean) / np.sqrt(var + eps) * gamma + beta


def _gelu_tanh(v):
    c = v.dtype.type(np.sqrt(2.0 / np.pi))
    return 0.5 * v * (1 + np.tanh(c * (v + v.dtype.type(0.044715) * v ** 3)))


def mini_gpt_block(x, ln1_gamma, ln1_beta, w_attn, b_attn, w_proj, b_proj, ln2_gamma, ln2_beta,
                   w_fc, b_fc, w_fc_proj, b_fc_proj, out, batch_size, seq_len, num_heads, head_dim, eps):
    """Pre-norm transformer block: causal self-attention and a GELU MLP, each with a residual."""
    C = num_heads * head_dim
    scale = x.dtype.type(1.0 / np.sqrt(head_dim))
    future = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1)  # key after query
    for b in range(batch_size):  # one sequence at a time keeps the T x T scores small
        xb = x[b]
        qkv = _layer_norm(xb, ln1_gamma, ln1_beta, eps) @ w_attn + b_attn
        q = qkv[:, :C].reshape(seq_len, num_heads, head_dim).transpose(1, 0, 2)
        k = qkv[:, C:2 * C].reshape(seq_len, num_heads, head_dim).transpose(1, 0, 2)
        v = qkv[:, 2 * C:].reshape(seq_len, num_heads, head_dim).transpose(1, 0, 2)
        s = (q @ k.transpose(0, 2, 1)) * scale
        s[:, future] = -np.inf
        p = np.exp(s - s.max(axis=2, keepdims=True))
        p /= p.sum(axis=2, keepdims=True)
        y = (p @ v).transpose(1, 0, 2).reshape(seq_len, C)
        x1 = xb + (y @ w_proj + b_proj)
        hidden = _gelu_tanh(_layer_norm(x1, ln2_gamma, ln2_beta, eps) @ w_fc + b_fc)
        out[b] = x1 + (hidden @ w_fc_proj + b_fc_proj)
