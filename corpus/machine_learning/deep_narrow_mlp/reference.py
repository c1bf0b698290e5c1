import numpy as np


def deep_narrow_mlp(x, w_in, b_in, w_hid, b_hid, w_out, b_out, out,
                    batch_size, input_size, hidden, num_hidden, output_size):
    """A stack of num_hidden equal-width Linear+ReLU layers followed by an output Linear."""
    h = np.maximum(x @ w_in + b_in, 0)
    for layer in range(num_hidden - 1):
        h = np.maximum(h @ w_hid[layer] + b_hid[layer], 0)
    out[:] = h @ w_out + b_out
