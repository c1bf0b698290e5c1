import numpy as np


def shallow_wide_mlp(x, w1, b1, w2, b2, w3, b3, out, batch_size, input_size, hidden1, hidden2, output_size):
    """Wide Linear -> ReLU -> Linear -> ReLU -> Linear on a batch of row vectors."""
    h = np.maximum(x @ w1 + b1, 0)
    h = np.maximum(h @ w2 + b2, 0)
    out[:] = h @ w3 + b3
