import numpy as np


def scaled_dot_product_attention(K, Q, V, out, BATCH, E, H, L):
    """out[b, h] = softmax(Q[b, h] @ K[b, h].T / sqrt(E), along each row) @ V[b, h].

    One (batch, head) pair at a time, so only one L x L score matrix is alive.
    """
    scale = Q.dtype.type(1.0 / np.sqrt(E))
    for b in range(BATCH):
        for h in range(H):
            scores = (Q[b, h] @ K[b, h].T) * scale
            scores -= scores.max(axis=1, keepdims=True)  # stable softmax: exp of values <= 0
            weights = np.exp(scores)
            weights /= weights.sum(axis=1, keepdims=True)
            out[b, h] = weights @ V[b, h]
