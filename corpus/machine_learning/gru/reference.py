import numpy as np


def gru(x, h0, w_ih0, w_ih, w_hh, b_ih, b_hh, out,
        sequence_length, batch_size, input_size, hidden_size, num_layers):
    """Stacked GRU (gates reset, update, new); writes the top layer's hidden state at every step."""
    H = hidden_size
    B = batch_size
    T = sequence_length
    seq = x  # time x batch x features
    for layer in range(num_layers):
        if layer == 0:
            w_in = w_ih0
        else:
            w_in = w_ih[layer - 1]
        # The input part of every step's gates, for all steps at once.
        a = (seq.reshape(T * B, seq.shape[2]) @ w_in).reshape(T, B, 3 * H) + b_ih[layer]
        h = h0[layer].copy()
        hs = np.empty((T, B, H), dtype=x.dtype)
        for t in range(T):
            b = h @ w_hh[layer] + b_hh[layer]
            r = 1 / (1 + np.exp(-(a[t, :, :H] + b[:, :H])))
            z = 1 / (1 + np.exp(-(a[t, :, H:2 * H] + b[:, H:2 * H])))
            n = np.tanh(a[t, :, 2 * H:] + r * b[:, 2 * H:])
            h = (1 - z) * n + z * h
            hs[t] = h
        seq = hs
    out[:] = seq
