import numpy as np


def gru_bidirectional_hidden(x, h0, w_ih0, w_ih, w_hh, b_ih, b_hh, out,
                             sequence_length, batch_size, input_size, hidden_size, num_layers):
    """Stacked bidirectional GRU (gates reset, update, new); writes h_n, the hidden state of every
    layer and direction after its last step."""
    H = hidden_size
    B = batch_size
    T = sequence_length
    seq = x  # time x batch x features
    for layer in range(num_layers):
        if layer == 0:
            w_in = w_ih0            # 2 x input_size x 3H
        else:
            w_in = w_ih[layer - 1]  # 2 x 2H x 3H
        # The input part of both directions' gates, for all steps at once: 2 x T x B x 3H.
        a = np.matmul(seq.reshape(1, T * B, seq.shape[2]), w_in).reshape(2, T, B, 3 * H)
        a += b_ih[layer].reshape(2, 1, 1, 3 * H)
        # Step k of the loop is time k forwards and time T-1-k backwards.
        steps = np.empty((T, 2, B, 3 * H), dtype=x.dtype)
        steps[:, 0] = a[0]
        steps[:, 1] = a[1, ::-1]
        bh = b_hh[layer].reshape(2, 1, 3 * H)
        h = h0[2 * layer:2 * layer + 2].copy()  # 2 x B x H: forward, backward
        hs = np.empty((T, B, 2 * H), dtype=x.dtype)
        for k in range(T):
            ak = steps[k]
            g = np.matmul(h, w_hh[layer]) + bh
            r = 1 / (1 + np.exp(-(ak[:, :, :H] + g[:, :, :H])))
            z = 1 / (1 + np.exp(-(ak[:, :, H:2 * H] + g[:, :, H:2 * H])))
            n = np.tanh(ak[:, :, 2 * H:] + r * g[:, :, 2 * H:])
            h = (1 - z) * n + z * h
            hs[k, :, :H] = h[0]
            hs[T - 1 - k, :, H:] = h[1]
        out[2 * layer:2 * layer + 2] = h
        seq = hs
