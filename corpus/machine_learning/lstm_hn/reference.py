import numpy as np


def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


def _lstm_stack(x, h0, c0, w_ih0, w_ih, w_hh, b_ih, b_hh, num_layers, hidden_size):
    """Runs the stacked LSTM; returns the top layer's h for every step and each layer's final h and c."""
    H = hidden_size
    seq = x  # batch x time x features
    h_last = np.empty_like(h0)
    c_last = np.empty_like(c0)
    for layer in range(num_layers):
        w_in = w_ih0 if layer == 0 else w_ih[layer - 1]
        # The input part of every step's gates, for all steps at once.
        gx = seq @ w_in + (b_ih[layer] + b_hh[layer])
        h = h0[layer]
        c = c0[layer]
        hs = np.empty((seq.shape[0], seq.shape[1], H), dtype=x.dtype)
        for t in range(seq.shape[1]):
            g = gx[:, t] + h @ w_hh[layer]
            i = _sigmoid(g[:, :H])
            f = _sigmoid(g[:, H:2 * H])
            cell = np.tanh(g[:, 2 * H:3 * H])
            o = _sigmoid(g[:, 3 * H:])
            c = f * c + i * cell
            h = o * np.tanh(c)
            hs[:, t] = h
        h_last[layer] = h
        c_last[layer] = c
        seq = hs
    return seq, h_last, c_last


def lstm_hn(x, h0, c0, w_ih0, w_ih, w_hh, b_ih, b_hh, h_n,
            batch_size, sequence_length, input_size, hidden_size, num_layers):
    """Stacked LSTM; writes every layer's hidden state after the last step."""
    _, h_last, _ = _lstm_stack(x, h0, c0, w_ih0, w_ih, w_hh, b_ih, b_hh, num_layers, hidden_size)
    h_n[:] = h_last
