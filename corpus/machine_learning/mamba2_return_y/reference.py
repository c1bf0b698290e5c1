import numpy as np


def mamba2_return_y(X, A, B, C, out, batch_size, seq_length, n_heads, d_head, d_state, block_len):
    """Mamba-2 structured state-space duality (SSD), chunked: the output Y of the scan
    h_t = exp(A_t) h_{t-1} + B_t x_t^T, y_t = C_t h_t (per head, zero initial state), computed as
    within-chunk attention-like blocks plus states carried between chunks."""
    Lb = block_len
    nc = seq_length // Lb
    H, P, N = n_heads, d_head, d_state
    causal = np.tril(np.ones((Lb, Lb), dtype=bool))
    step = 32  # sequences per slice: keeps the Lb x Lb temporaries small at large batch sizes
    for b0 in range(0, batch_size, step):
        nb = min(step, batch_size - b0)
        # Chunked, head-major views: batch x chunk x head x position (x feature).
        x = X[b0:b0 + nb].reshape(nb, nc, Lb, H, P).transpose(0, 1, 3, 2, 4)
        Bm = B[b0:b0 + nb].reshape(nb, nc, Lb, H, N).transpose(0, 1, 3, 2, 4)
        Cm = C[b0:b0 + nb].reshape(nb, nc, Lb, H, N).transpose(0, 1, 3, 2, 4)
        acs = np.cumsum(A[b0:b0 + nb].reshape(nb, nc, Lb, H).transpose(0, 1, 3, 2), axis=-1)
        # 1. Within each chunk: y_l = sum_{s <= l} (C_l . B_s) exp(acs_l - acs_s) x_s.
        decay = np.exp(acs[..., :, None] - acs[..., None, :]) * causal
        y = ((Cm @ Bm.transpose(0, 1, 2, 4, 3)) * decay) @ x
        # 2. Each chunk's own state at its end: sum_l exp(acs_last - acs_l) B_l x_l^T (d_state x d_head).
        w = Bm * np.exp(acs[..., -1:] - acs)[..., None]
        states = w.transpose(0, 1, 2, 4, 3) @ x
        # 3. States entering each chunk, carried across chunks from a zero initial state.
        entering = np.empty_like(states)
        run = np.zeros((nb, H, N, P), dtype=X.dtype)
        for c in range(nc):
            entering[:, c] = run
            run = np.exp(acs[:, c, :, -1])[..., None, None] * run + states[:, c]
        # 4. The entering state seen from each position: exp(acs_l) C_l . state.
        y += np.exp(acs)[..., None] * (Cm @ entering)
        out[b0:b0 + nb] = y.transpose(0, 1, 3, 2, 4).reshape(nb, seq_length, H, P)
