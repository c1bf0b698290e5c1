import numpy as np


def _layer_norm(v, gain, bias, eps):
    mean = v.mean(axis=-1, keepdims=True)
    var = ((v - mean) ** 2).mean(axis=-1, keepdims=True)
    return gain * (v - mean) / np.sqrt(var + eps) + bias


def _gelu_tanh(v):
    c = v.dtype.type(np.sqrt(2.0 / np.pi))
    return 0.5 * v * (1 + np.tanh(c * (v + v.dtype.type(0.044715) * v ** 3)))


def gpt2_block(x, ln1_g, ln1_b, w_qkv, b_qkv, w_out, b_out, ln2_g, ln2_b, w_fc, b_fc, w_proj, b_proj, out,
               T, num_heads, head_dim, eps):
    """One GPT-2 transformer block on a single sequence: pre-norm causal multi-head self-attention and
    a GELU MLP, each added to the residual stream."""
    D = num_heads * head_dim
    qkv = _layer_norm(x, ln1_g, ln1_b, eps) @ w_qkv + b_qkv
    q = qkv[:, :D].reshape(T, num_heads, head_dim).transpose(1, 0, 2)
    k = qkv[:, D:2 * D].reshape(T, num_heads, head_dim).transpose(1, 0, 2)
    v = qkv[:, 2 * D:].reshape(T, num_heads, head_dim).transpose(1, 0, 2)
    s = (q @ k.transpose(0, 2, 1)) * x.dtype.type(1.0 / np.sqrt(head_dim))
    s[:, np.triu(np.ones((T, T), dtype=bool), k=1)] = -np.inf  # a query sees keys up to itself
    p = np.exp(s - s.max(axis=2, keepdims=True))
    p /= p.sum(axis=2, keepdims=True)
    merged = (p @ v).transpose(1, 0, 2).reshape(T, D)
    resid = x + (merged @ w_out + b_out)
    hidden = _gelu_tanh(_layer_norm(resid, ln2_g, ln2_b, eps) @ w_fc + b_fc)
    out[:] = resid + (hidden @ w_proj + b_proj)
