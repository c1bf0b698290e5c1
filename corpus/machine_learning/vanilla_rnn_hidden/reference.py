import numpy as np


def vanilla_rnn_hidden(x, h0, w_i2h, b_i2h, w_h2o, b_h2o, out,
                       sequence_length, batch_size, input_size, hidden_size, output_size):
    """Elman RNN over a sequence; out[t] is the output projection of the hidden state after step t."""
    T = sequence_length
    B = batch_size
    w_x = w_i2h[:input_size]
    w_h = w_i2h[input_size:]
    # The input half of every step's pre-activation does not depend on h: one batched product.
    pre = (x.reshape(T * B, input_size) @ w_x).reshape(T, B, hidden_size) + b_i2h
    hs = np.empty((T, B, hidden_size), dtype=x.dtype)
    h = h0.copy()
    for t in range(T):
        h = np.tanh(pre[t] + h @ w_h)
        hs[t] = h
    out[:] = (hs.reshape(T * B, hidden_size) @ w_h2o).reshape(T, B, output_size) + b_h2o
