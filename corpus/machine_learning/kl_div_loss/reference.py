import numpy as np


def kl_div_loss(loss, predictions, targets, D, N):
    """Batch-mean KL divergence KL(q || p), p and q the row-normalized predictions and targets (N x D)."""
    p = predictions / predictions.sum(axis=1, keepdims=True)
    q = targets / targets.sum(axis=1, keepdims=True)
    loss[:] = (q * (np.log(q) - np.log(p))).sum() / N
