import numpy as np


def lstm_bidirectional(x, h0, c0, w_ih0, w_ih, w_hh, b_ih, b_hh, fc_w, fc_b, out,
                       batch_size, sequence_length, input_size, hidden_size, num_layers, output_size):
    """Stacked bidirectional LSTM (gates input, forget, cell, output), then a linear head on the top
    layer's output at the last time step (forward and backward halves)."""
    H = hidden_size
    B = batch_size
    T = sequence_length
    # Time-major copy of the input so that every step reads a contiguous batch x features block.
    seq = np.ascontiguousarray(x.transpose(1, 0, 2))
    for layer in range(num_layers):
        if layer == 0:
            w_in = w_ih0            # 2 x input_size x 4H
        else:
            w_in = w_ih[layer - 1]  # 2 x 2H x 4H
        # The input part of both directions' gates (both biases folded in), all steps at once.
        a = np.matmul(seq.reshape(1, T * B, seq.shape[2]), w_in).reshape(2, T, B, 4 * H)
        a += (b_ih[layer] + b_hh[layer]).reshape(2, 1, 1, 4 * H)
        # Step k of the loop is time k forwards and time T-1-k backwards.
        steps = np.empty((T, 2, B, 4 * H), dtype=x.dtype)
        steps[:, 0] = a[0]
        steps[:, 1] = a[1, ::-1]
        h = h0[2 * layer:2 * layer + 2].copy()  # 2 x B x H: forward, backward
        c = c0[2 * layer:2 * layer + 2].copy()
        hs = np.empty((T, B, 2 * H), dtype=x.dtype)
        for k in range(T):
            g = steps[k] + np.matmul(h, w_hh[layer])
            i = 1 / (1 + np.exp(-g[:, :, :H]))
            f = 1 / (1 + np.exp(-g[:, :, H:2 * H]))
            cell = np.tanh(g[:, :, 2 * H:3 * H])
            o = 1 / (1 + np.exp(-g[:, :, 3 * H:]))
            c = f * c + i * cell
            h = o * np.tanh(c)
            hs[k, :, :H] = h[0]
            hs[T - 1 - k, :, H:] = h[1]
        seq = hs
    out[:] = seq[T - 1] @ fc_w + fc_b
