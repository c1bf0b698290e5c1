import numpy as np


def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


def _gru_stack(x, h0, w_ih0, w_ih, w_hh, b_ih, b_hh, num_layers, hidden_size):
    """Runs the stacked GRU; returns the top layer's h at every step and each layer's final h."""
    H = hidden_size
    seq = x  # time x batch x features
    h_last = np.empty_like(h0)
    for layer in range(num_layers):
        w_in = w_ih0 if layer == 0 else w_ih[layer - 1]
        # The input part of every step's gates, for all steps at once.
        a = seq @ w_in + b_ih[layer]
        h = h0[layer]
        hs = np.empty((seq.shape[0], seq.shape[1], H), dtype=x.dtype)
        for t in range(seq.shape[0]):
            b = h @ w_hh[layer] + b_hh[layer]
            r = _sigmoid(a[t, :, :H] + b[:, :H])
            z = _sigmoid(a[t, :, H:2 * H] + b[:, H:2 * H])
            n = np.tanh(a[t, :, 2 * H:] + r * b[:, 2 * H:])
            h = (1 - z) * n + z * h
            hs[t] = h
        h_last[layer] = h
        seq = hs
    return seq, h_last


def gru(x, h0, w_ih0, w_ih, w_hh, b_ih, b_hh, out,
        sequence_length, batch_size, input_size, hidden_size, num_layers):
    """Stacked GRU; writes the top layer's hidden state at every step."""
    seq, _ = _gru_stack(x, h0, w_ih0, w_ih, w_hh, b_ih, b_hh, num_layers, hidden_size)
    out[:] = seq
