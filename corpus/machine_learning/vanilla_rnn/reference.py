import numpy as np


def vanilla_rnn(x, h0, w_i2h, b_i2h, w_h2o, b_h2o, out, batch_size, input_size, hidden_size, output_size):
    """One Elman-RNN step on [x, h0]; writes the output projection of the new hidden state."""
    h = np.tanh(x @ w_i2h[:input_size] + h0 @ w_i2h[input_size:] + b_i2h)
    out[:] = h @ w_h2o + b_h2o
