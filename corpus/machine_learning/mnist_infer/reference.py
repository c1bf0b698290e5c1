import numpy as np


def mnist_infer(x, w1, b1, w2, b2, w3, b3, logits, N, D, H, K):
    """MNIST MLP inference: two hidden ReLU layers and a linear head, weights input-major."""
    h = np.maximum(x @ w1 + b1, 0)
    h = np.maximum(h @ w2 + b2, 0)
    logits[:] = h @ w3 + b3
