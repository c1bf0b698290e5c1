import numpy as np


def lstm_hn(x, h0, c0, w_ih0, w_ih, w_hh, b_ih, b_hh, h_n,
            batch_size, sequence_length, input_size, hidden_size, num_layers):
    """Stacked LSTM (gates input, forget, cell, output); writes every layer's hidden state after the last step."""
    H = hidden_size
    B = batch_size
    T = sequence_length
    # Time-major copy of the input so that every step reads a contiguous batch x features block.
    seq = np.ascontiguousarray(x.transpose(1, 0, 2))
    for layer in range(num_layers):
        if layer == 0:
            w_in = w_ih0
        else:
            w_in = w_ih[layer - 1]
        # The input part of every step's gates, for all steps at once (time-major).
        gx = (seq.reshape(T * B, seq.shape[2]) @ w_in).reshape(T, B, 4 * H) + (b_ih[layer] + b_hh[layer])
        h = h0[layer].copy()
        c = c0[layer].copy()
        hs = np.empty((T, B, H), dtype=x.dtype)
        for t in range(T):
            g = gx[t] + h @ w_hh[layer]
            i = 1 / (1 + np.exp(-g[:, :H]))
            f = 1 / (1 + np.exp(-g[:, H:2 * H]))
            cell = np.tanh(g[:, 2 * H:3 * H])
            o = 1 / (1 + np.exp(-g[:, 3 * H:]))
            c = f * c + i * cell
            h = o * np.tanh(c)
            hs[t] = h
        h_n[layer] = h
        seq = hs
